package schema

import (
	"net"
	"strings"
	"unicode"
)

// isHostLink is a VRRP interface as k0s takes it: the name of an existing
// host interface, or a MAC address k0s resolves to the interface holding it
// (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/cplb.go:152-154, cplb_linux.go:35-57).
// k0s reads as a MAC whatever net.ParseMAC reads (0011.2233.4455 too,
// though the kernel would take it as a name) and matches it against each
// link's address as net.HardwareAddr.String spells it, so only that
// spelling can ever be found.
func isHostLink(s string) bool {
	if mac, err := net.ParseMAC(s); err == nil {
		return mac.String() == s
	}
	// k0s writes the name unquoted into keepalived's configuration
	// (cplb_templates.go:17), where keepalived would read "e#0" as "e".
	return isKernelLinkName(s) && !strings.ContainsAny(s, KeepalivedBreaks)
}

// IsHostLinkMAC says a valid ha.interface is a MAC address, not a name.
func IsHostLinkMAC(s string) bool {
	_, err := net.ParseMAC(s)
	return err == nil
}

// isKernelLinkName is the kernel's rule for an interface name,
// dev_valid_name (linux net/core/dev.c): 1 to IFNAMSIZ-1 (15) bytes, not
// "." or "..", no '/', ':' or whitespace (the kernel's isspace, which takes
// 0xa0 for one). A control character the kernel would take is refused too:
// k0s writes the name into keepalived's line-based configuration
// (pkg/component/controller/cplb/cplb_templates.go:17).
func isKernelLinkName(s string) bool {
	if s == "" || len(s) > 15 || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == ':' || c == ' ' || c == 0xa0 {
			return false
		}
	}
	// The kernel's other whitespace (\t\n\v\f\r) is control characters.
	return !strings.ContainsFunc(s, unicode.IsControl)
}
