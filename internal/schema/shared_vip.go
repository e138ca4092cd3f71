package schema

import (
	"net/netip"
	"slices"
)

// SharedVirtualIPs tells validation the virtual IPs other controllers of
// the set share (validate --cluster reads them off the set's documents). A
// controller at another site takes no part in VRRP (no ha block) and keeps
// cluster.endpoint the virtual IP, reaching the API there like any client,
// as docs/cluster.md designs it: its guard's rule for the endpoint's address
// never matches on a node that never holds the address, so the warning for
// an endpoint off the overlay does not apply. One document alone cannot
// tell that address from a load balancer's or a typo, which keep the
// warning. A controller on the virtual IP's network without ha is the
// cluster check's to report.
func SharedVirtualIPs(addrs ...netip.Addr) Option {
	return func(o *options) { o.sharedVIPs = append(o.sharedVIPs, addrs...) }
}

// endpointIsSharedVIP reports whether addr is a virtual IP the set's other
// controllers share while this controller takes no part in VRRP.
func (v *crossCheck) endpointIsSharedVIP(addr netip.Addr) bool {
	return !v.cfg.HA.On() && slices.Contains(v.opts.sharedVIPs, addr)
}
