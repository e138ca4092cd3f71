package schema

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/finding"
)

// allowedIPs: WireGuard routes a prefix to one peer only, so two peers
// claiming overlapping prefixes silently lose traffic; a prefix that holds
// this interface's own address sends nothing anywhere; host bits are
// masked by wg, so what is written is not what is routed; a default route
// takes the node's whole traffic into one tunnel. Peers and their prefixes
// are YAML sequences, so (peer, index) is document order; paths are spelled
// only for what is reported.
func (v *crossCheck) allowedIPs(base finding.Path, wg WireGuard) {
	own := ownPrefixes(wg)
	n := 0
	for _, p := range wg.Peers {
		n += len(p.AllowedIPs)
	}
	spans := make([]span, 0, n)
	hostBits := make([]bool, 0, n)
	for j, p := range wg.Peers {
		for k, a := range p.AllowedIPs {
			pre, err := netip.ParsePrefix(a)
			if err != nil {
				continue // the field rule reports it
			}
			v.allowedIP(base, j, k, pre, own)
			spans = append(spans, span{prefix: pre.Masked(), owner: j, line: j + 1, col: k + 1})
			hostBits = append(hostBits, pre != pre.Masked())
		}
	}
	// rel is an entry's path below the interface, as the messages name it;
	// at is its path in the document.
	rel := func(from finding.Path, s span) finding.Path {
		return from.Field("peers").Index(s.line - 1).Field("allowedIPs").Index(s.col - 1)
	}
	at := func(s span) string { return rel(base, s).String() }
	for i, first := range clashes(spans) {
		if hostBits[first] && !hostBits[i] {
			// The earlier entry claims more than it says: it is the one to
			// fix, and the later one, written as meant, is not to blame.
			v.errorf(at(spans[first]), "is %s once wg clears its host bits, which overlaps %s (%s)", spans[first].prefix, rel("", spans[i]), spans[i].prefix)
			continue
		}
		v.errorf(at(spans[i]), "overlaps %s (%s)", rel("", spans[first]), spans[first].prefix)
	}
}

// allowedIP checks entry k of peer j's allowedIPs against the interface's
// own prefixes.
func (v *crossCheck) allowedIP(base finding.Path, j, k int, pre netip.Prefix, own []netip.Prefix) {
	at := func() string { return base.Field("peers").Index(j).Field("allowedIPs").Index(k).String() }
	masked := pre.Masked()
	if pre != masked {
		v.warnf(at(), "has host bits set, which wg clears: it is %s; write %s, or %s/%d for the one address",
			masked, masked, pre.Addr(), pre.Addr().BitLen())
	}
	if masked.Bits() == 0 {
		v.warnf(at(), "is a full tunnel: every destination without a more specific route goes to this peer, the API server, registries and DNS of a Kubernetes node included; list the prefixes behind the peer instead")
		return
	}
	for i, o := range own {
		// A prefix at least as wide as the interface's own network routes
		// the overlay through this peer (a hub); a narrower one, or the
		// address alone, says this node is behind its peer.
		if masked.Contains(o.Addr()) && (masked.Bits() > o.Bits() || masked.Bits() == o.Addr().BitLen()) {
			v.errorf(at(), "holds this interface's own address %s (address[%d]): a peer's allowedIPs are the addresses behind the other end; give the peer's address", o.Addr(), i)
			return
		}
	}
}

// ownPrefixes are the interface's addresses that parse.
func ownPrefixes(wg WireGuard) []netip.Prefix {
	out := make([]netip.Prefix, 0, len(wg.Address))
	for _, a := range wg.Address {
		if p, err := netip.ParsePrefix(a); err == nil {
			out = append(out, p)
		}
	}
	return out
}
