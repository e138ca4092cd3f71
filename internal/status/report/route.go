package report

import (
	"fmt"
	"net/netip"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/shown"
)

// nodeAddress reports the recorded node address and its decision: the one
// the last run recorded, or, with the status file gone, the same selection
// made again from the live links.
func (in *inspection) nodeAddress() {
	addr, _ := recordedNodeAddress(in.o.Root, in.run)
	n := &NodeAddress{Address: addr}
	switch {
	case in.run != nil && in.run.NodeAddress != nil:
		n.Decision = in.run.NodeAddress
	case in.facts != nil:
		n.Decision = render.SelectNodeAddress(in.cfg, in.eff, in.facts).Status()
		n.Recomputed = true
	case in.run != nil:
		in.unknown("node-address decision", "the last run recorded none (it decided nothing) and there are no live links to decide from")
	default:
		in.unknown("node-address decision", "no status file and no live links to decide from")
	}
	in.r.NodeAddress = n
}

// route checks the underlay. A node address on an overlay interface is
// checked with that interface (tunnel); one taken from the default route
// must still be the default route's source and sit on a link.
func (in *inspection) route() {
	if in.facts == nil {
		in.unknown("route", in.factErr.Error())
		return
	}
	r := &Route{}
	if d := in.facts.DefaultRoute; d != nil {
		r.DefaultRoute = fmt.Sprintf("%s via source %s", shown.Text(d.Interface), d.Source)
	}
	addr := in.r.NodeAddress.Address
	// The node address came from the default route of its own family.
	a, _ := netip.ParseAddr(addr)
	d := in.facts.DefaultRouteOf(a.Is6() && !a.Is4In6())
	overlay := render.OverlayOfNodeAddress(in.cfg)
	switch {
	case overlay != nil:
		r.OK, r.Reason = true, fmt.Sprintf("the node address is on %s; the tunnel layer checks it", overlay.Name)
	case addr == "":
		r.OK, r.Reason = true, "no node address was recorded (k0s chose it); nothing to hold the route to"
	case d == nil:
		r.Reason = fmt.Sprintf("the host has no %s default route; the node address %s was its source", config.FamilyOf(a), addr)
	case d.Source.String() != addr:
		r.Reason = fmt.Sprintf("the default route's source is now %s, the node registered with %s", d.Source, addr)
	case !onSomeLink(in.facts, addr):
		r.Reason = fmt.Sprintf("no link that is up carries the node address %s", addr)
	default:
		r.OK, r.Reason = true, fmt.Sprintf("the node address %s is the default route's source on %s", addr, shown.Text(d.Interface))
	}
	in.r.Route = r
	in.endpoints(r)
}

// endpoints looks up the route to every configured peer endpoint that is an
// IP; the first one without a route breaks the layer.
func (in *inspection) endpoints(r *Route) {
	for _, wg := range in.cfg.WireGuard {
		for _, p := range wg.Peers {
			if p.Endpoint == "" {
				continue // the peer dials in
			}
			e := EndpointRoute{Interface: wg.Name, Endpoint: p.Endpoint}
			ap, err := netip.ParseAddrPort(p.Endpoint)
			switch {
			case err != nil:
				e.Problem = "not looked up: a host name is resolved by wg-quick, not here"
			default:
				if e.Via, err = in.o.Links.RouteTo(ap.Addr()); err != nil {
					e.Problem = "no route: " + err.Error()
					if r.OK {
						r.OK = false
						r.Reason = fmt.Sprintf("no route to %s, the endpoint of peer %s of %s (%v)", p.Endpoint, Peer{PublicKey: p.PublicKey, Address: overlayAddress(wg.Address, p.AllowedIPs)}.Name(), wg.Name, err)
					}
				}
			}
			r.Endpoints = append(r.Endpoints, e)
		}
	}
}

func onSomeLink(f *hostfacts.Facts, addr string) bool {
	for _, i := range f.Interfaces {
		for _, p := range i.Addresses {
			if p.Addr().String() == addr {
				return true
			}
		}
	}
	return false
}
