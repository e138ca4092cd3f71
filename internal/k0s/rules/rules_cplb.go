package rules

import (
	"math"
	"net"
	"time"
)

// validateCPLB is ControlPlaneLoadBalancingSpec.Validate (cplb.go:324-355),
// which ClusterSpec.Validate runs whenever the block is there, enabled or
// not (clusterconfig_types.go:466-470). Messages keep k0s's wording, with
// field names as the YAML spells them; none carries authPass.
func validateCPLB(cplb node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/cplb.go:"
	if !cplb.present() {
		return
	}
	if t, _ := cplb.str("type"); t != "" && t != "Keepalived" {
		c.add(cplb.child("type").path, src+"334", "unsupported CPLB type: the only allowed value is Keepalived")
	}
	k := cplb.child("keepalived")
	if !k.present() {
		return
	}
	for i, vrrp := range k.items("vrrpInstances") {
		validateVRRPInstance(vrrp, i, c)
	}
	for _, vs := range k.items("virtualServers") {
		validateVirtualServer(vs, c)
	}
	if port, ok := k.num("userSpaceProxyBindPort"); ok && port != 0 && (port < 1 || port > 65535) {
		c.add(k.child("userSpaceProxyBindPort").path, src+"351", "userSpaceProxyBindPort must be in the range of 1-65535")
	}
}

// validateVRRPInstance is one turn of validateVRRPInstances (cplb.go:145-206).
// An empty interface is the default route's and a MAC address is looked up
// among the host's links (cplb.go:146-154): host facts, not checked here.
func validateVRRPInstance(v node, i int, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/cplb.go:"
	id, _ := v.num("virtualRouterID")
	switch {
	case id == 0 && 51+i > 255:
		c.add(v.child("virtualRouterID").path, src+"159", "automatic virtualRouterIDs exceeded, specify them explicitly")
	case id < 0 || id > 255:
		c.add(v.child("virtualRouterID").path, src+"163", "virtualRouterID must be in the range of 1-255")
	}
	if label, ok := v.num("addressLabel"); ok && label == math.MaxUint32 {
		c.add(v.child("addressLabel").path, src+"170", "addressLabel 0xffffffff is reserved")
	}
	pass, _ := v.str("authPass")
	if pass == "" {
		c.add(v.child("authPass").path, src+"178", "authPass must be defined")
	}
	if len(pass) > 8 {
		c.add(v.child("authPass").path, src+"181", "authPass is longer than 8 characters (k0s: AuthPass must be 8 characters or less)")
	}
	vips := v.items("virtualIPs")
	if len(vips) == 0 {
		c.add(v.child("virtualIPs").path, src+"185", "virtualIPs must be defined")
	}
	for _, vip := range vips {
		if _, _, err := net.ParseCIDR(vip.v.s); err != nil {
			c.add(vip.path, src+"189", "virtualIPs must be a CIDR: write an address with its prefix length, such as 192.0.2.100/24")
		}
	}
	peers := v.items("unicastPeers")
	if len(peers) == 0 {
		return
	}
	source, _ := v.str("unicastSourceIP")
	if net.ParseIP(source) == nil {
		c.add(v.child("unicastSourceIP").path, src+"195", "unicastPeers require a valid unicastSourceIP: write this node's IP address")
	}
	for _, p := range peers {
		if net.ParseIP(p.v.s) == nil {
			c.add(p.path, src+"199", "unicastPeers require valid IP addresses: write each peer's IP address")
		}
		if p.v.s == source {
			c.add(p.path, src+"202", "unicastPeers must not contain the unicastSourceIP: list only the other nodes")
		}
	}
}

// validateVirtualServer is one turn of validateVirtualServers (cplb.go:275-319).
func validateVirtualServer(vs node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/cplb.go:"
	ip, _ := vs.str("ipAddress")
	if ip == "" {
		c.add(vs.child("ipAddress").path, src+"277", "ipAddress must be defined")
	}
	if net.ParseIP(ip) == nil {
		c.add(vs.child("ipAddress").path, src+"280", "invalid IP address: write the virtual server's IP address")
	}
	switch algo, _ := vs.str("lbAlgo"); algo {
	case "", "rr", "wrr", "lc", "wlc", "lblc", "dh", "sh", "sed", "nq":
	default:
		c.add(vs.child("lbAlgo").path, src+"290", "invalid lbAlgo: write one of rr, wrr, lc, wlc, lblc, dh, sh, sed, nq")
	}
	switch kind, _ := vs.str("lbKind"); kind {
	case "", "NAT", "DR", "TUN":
	default:
		c.add(vs.child("lbKind").path, src+"301", "invalid lbKind: write one of NAT, DR, TUN")
	}
	if t, ok := vs.num("persistenceTimeoutSeconds"); ok && t != 0 && (t < 1 || t > 2678400) {
		c.add(vs.child("persistenceTimeoutSeconds").path, src+"308", "persistenceTimeout must be in the range of 1-2678400")
	}
	if s, ok := vs.str("delayLoop"); ok {
		// Decoding already refused what time.ParseDuration does not take.
		if d, err := time.ParseDuration(s); err == nil && d != 0 && d.Truncate(time.Microsecond).Microseconds() <= 0 {
			c.add(vs.child("delayLoop").path, src+"316", "delayLoop must be positive: write a duration of a microsecond or more, such as 5s")
		}
	}
}
