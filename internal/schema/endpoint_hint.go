package schema

import (
	"net/netip"
	"strconv"
	"strings"
)

// bracketHint is what to write for an endpoint that is an IPv6 address
// without the brackets host:port needs around it (RFC 3986's IP-literal,
// what net.SplitHostPort and wg-quick read), or "". Only a value that is
// an IPv6 address, with or without a port, is quoted back: it is an
// address, never a secret typed into the wrong field.
func bracketHint(v string) string {
	if i := strings.LastIndexByte(v, ':'); i > 0 {
		a, aerr := netip.ParseAddr(v[:i])
		port, perr := strconv.Atoi(v[i+1:])
		if aerr == nil && perr == nil && a.Is6() && port >= 1 && port <= 65535 && a.Zone() == "" {
			return "; an IPv6 address goes in brackets before the port: write `" + netip.AddrPortFrom(a, uint16(port)).String() + "`"
		}
	}
	if a, err := netip.ParseAddr(v); err == nil && a.Is6() && a.Zone() == "" {
		return "; an IPv6 address goes in brackets before the port: write `[" + a.String() + "]:PORT` (51820 is WireGuard's usual one)"
	}
	return ""
}
