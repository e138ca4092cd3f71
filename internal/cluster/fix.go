package cluster

import (
	"fmt"
	"net/netip"
	"strings"
)

// Where a finding has one obvious fix, the YAML to add is printed beside
// it (Finding.Fix), built from the other document's public values only: a
// public key, the endpoint the set dials the node at, its addresses. It is
// never written to a file, and never holds a private key, a preshared key
// or where a secret is read from; a preshared key the pair needs is named
// as a field to add.

// fix attaches YAML to the finding just added.
func (c *check) fix(yaml string) {
	c.findings[len(c.findings)-1].Fix = yaml
}

// peerFix is the entry t lacks for f, which e (f's entry for t) shows is
// meant; "" when f's public key is not known, or its file's own rules
// refused a key field: what is written there may be a secret pasted into
// the wrong field (one not inline in the set, so not found as one).
func (c *check) peerFix(t, f *iface, e *entry) string {
	if !showsKey(f) {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# add to %s %s.peers, for %s:\n", t.n.at("").File, t.path(), f)
	fmt.Fprintf(&b, "- publicKey: %s\n", f.key)
	if ep := c.dialedAt(f); ep != "" {
		fmt.Fprintf(&b, "  endpoint: %s\n", ep)
	}
	hosts := make([]string, len(f.addrs))
	for i, a := range f.addrs {
		hosts[i] = netip.PrefixFrom(a.Addr(), a.Addr().BitLen()).String()
	}
	fmt.Fprintf(&b, "  allowedIPs: [%s]\n", strings.Join(hosts, ", "))
	if e.p.PresharedKey != nil || e.p.PresharedKeyFrom != nil {
		fmt.Fprintf(&b, "  # and presharedKey or presharedKeyFrom, the same key as %s %s.presharedKey\n", f.n.at("").File, e.path())
	}
	return b.String()
}

// showsKey says whether a fix may print f's public key: it is known, and
// its file's own rules took its key fields (what they refused may be a
// secret pasted into the wrong field).
func showsKey(f *iface) bool {
	return f.known && !f.n.bad[f.path().Field("publicKey").String()] && !f.n.bad[f.path().Field("privateKey").String()]
}

// allowedFix is e's allowedIPs with the addresses it misses.
func allowedFix(e *entry, missing []string) string {
	all := make([]string, 0, len(e.allowed)+len(missing))
	for _, p := range e.allowed {
		all = append(all, p.String())
	}
	all = append(all, strings.Split(hostPrefixes(missing), ", ")...)
	return fmt.Sprintf("# %s of %s, with the addresses of %s:\nallowedIPs: [%s]\n",
		e.path(), e.in.n.at("").File, e.target, strings.Join(all, ", "))
}

// dialedAt is the endpoint the set's entries dial f at, the first in file
// order; "" when none does. Indexed once per check.
func (c *check) dialedAt(f *iface) string {
	if c.dialledAt == nil {
		c.dialledAt = map[*iface]string{}
		c.entries(func(e *entry) {
			if t := e.target; t != nil && e.p.Endpoint != "" && !e.in.n.bad[e.path().Field("endpoint").String()] && e.elsewhere == nil {
				if _, seen := c.dialledAt[t]; !seen {
					c.dialledAt[t] = e.p.Endpoint
				}
			}
		})
	}
	return c.dialledAt[f]
}
