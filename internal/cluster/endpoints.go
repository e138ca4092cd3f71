package cluster

import (
	"fmt"
	"net/netip"
	"strings"
)

// endpoints: the peers that dial one interface usually dial it at one
// address; one dialled at several is a warning naming each endpoint and who
// dials it, since one of them is usually the address of another site or a
// node that moved. Reported once, at the interface dialled. Ports are
// compared too: one that differs from the listenPort is dial's warning.
func (c *check) endpoints() {
	type dialled struct {
		by    map[string][]*entry // endpoint -> its entries, in file order
		order []string            // endpoints as first seen
	}
	at := map[*iface]*dialled{}
	var targets []*iface
	c.entries(func(e *entry) {
		t := e.target
		if t == nil || e.p.Endpoint == "" || e.in.n.bad[e.path().Field("endpoint").String()] || e.elsewhere != nil || e.atVIP || c.natted(t) {
			return
		}
		d := at[t]
		if d == nil {
			d = &dialled{by: map[string][]*entry{}}
			at[t] = d
			targets = append(targets, t)
		}
		ep := canonicalEndpoint(e.p.Endpoint)
		if _, seen := d.by[ep]; !seen {
			d.order = append(d.order, ep)
		}
		d.by[ep] = append(d.by[ep], e)
	})
	for _, t := range targets {
		d := at[t]
		if len(d.order) < 2 {
			continue
		}
		var uses []string
		var related []Place
		for _, ep := range d.order {
			var who []string
			for _, e := range d.by[ep] {
				who = append(who, e.in.String())
				related = append(related, e.in.n.at(e.path().Field("endpoint").String()))
			}
			uses = append(uses, fmt.Sprintf("%s by %s", ep, strings.Join(who, ", ")))
		}
		c.warnf(t.n, t.path().String(), related,
			"is dialled at %d endpoints: %s; one of them is usually another site's address or an old one: give every peer the endpoint this node answers at (behind a 1:1 NAT, its private address inside its site and its public one outside: state that in a topology, validate --cluster --topology)",
			len(d.order), strings.Join(uses, "; "))
	}
}

// canonicalEndpoint spells an IP endpoint one way ([::1]:51820 however its
// address is written); a host name is compared as written.
func canonicalEndpoint(s string) string {
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.String()
	}
	return s
}
