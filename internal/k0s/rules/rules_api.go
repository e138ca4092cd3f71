package rules

import "net"

// validateAPI is APISpec.Validate (api.go:144-186). An empty or missing
// address is not checked here: k0s fills it from the host's first public
// address (api.go:202-204), which only the host knows.
func validateAPI(api node, c *problems) {
	if addr, _ := api.str("address"); addr != "" {
		p := api.child("address").path
		if !isIP(addr) {
			c.add(p, "pkg/apis/k0s/v1beta1/api.go:151", "invalid IP address: write this controller's IPv4 or IPv6 address, such as 192.0.2.10")
		}
		if isAnyAddress(addr) {
			c.add(p, "pkg/apis/k0s/v1beta1/api.go:154", "invalid INADDR_ANY: 0.0.0.0 and :: stand for every address; write this controller's own address")
		}
	}
	if ext, _ := api.str("externalAddress"); ext != "" {
		p := api.child("externalAddress").path
		if host := externalHost(ext); !isIP(host) && !isDNSName(host) {
			c.add(p, "pkg/apis/k0s/v1beta1/api.go:166", "invalid IP address / DNS name: write an IP address or a DNS name, optionally with :port")
		}
		if isAnyAddress(ext) {
			c.add(p, "pkg/apis/k0s/v1beta1/api.go:167", "invalid INADDR_ANY: 0.0.0.0 and :: stand for every address; write the address clients reach the API at")
		}
	}
	// 0 is the default (api.go:205-210), anything else must be a port.
	for key, src := range map[string]string{"k0sApiPort": "pkg/apis/k0s/v1beta1/api.go:172", "port": "pkg/apis/k0s/v1beta1/api.go:176"} {
		if n, ok := api.num(key); ok && n != 0 {
			if msg := portProblem(n); msg != "" {
				c.add(api.child(key).path, src, msg+": write a port, or leave the key out for k0s's default")
			}
		}
	}
	for _, san := range api.items("sans") {
		if !isIP(san.v.s) && !isDNSName(san.v.s) {
			c.add(san.path, "pkg/apis/k0s/v1beta1/api.go:182", "invalid IP address / DNS name: write an IP address or a DNS name")
		}
	}
}

// isAnyAddress is api.go:139.
func isAnyAddress(a string) bool { return a == "0.0.0.0" || a == "::" }

// externalHost is APISpec.ExternalHost (api.go:96-104): the host of a
// host:port, else the whole address.
func externalHost(ext string) string {
	if host, _, _ := net.SplitHostPort(ext); host != "" {
		return host
	}
	return ext
}
