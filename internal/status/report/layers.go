package report

import (
	"errors"
	"fmt"
	"net"
	"net/netip"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/hostfacts/gather"
)

// k0s reports the k0s unit and the address k0s was installed with.
func (in *inspection) k0s() {
	k := &K0s{Unit: render.K0sUnit(in.cfg.Role)}
	_, k.UnitState, _ = in.unitState(k.Unit)
	k.InstalledAddress, k.Via = recordedNodeAddress(in.o.Root, in.run)
	if a, err := netip.ParseAddr(k.InstalledAddress); err == nil && in.facts != nil {
		on := false
		for _, iface := range in.facts.Interfaces {
			for _, p := range iface.Addresses {
				on = on || p.Addr().Unmap() == a.Unmap()
			}
		}
		k.AddressOnHost = &on
	}
	in.r.K0s = k
}

// LinkFacts reads links and the default route over netlink.
type LinkFacts struct{ Netlink gather.Netlink }

func (l LinkFacts) Facts() (*hostfacts.Facts, error) { return gather.Gather(l.Netlink) }

// RouteTo looks the route to dst up (no packet is sent) and names the link
// it leaves by.
func (l LinkFacts) RouteTo(dst netip.Addr) (string, error) {
	routes, err := l.Netlink.RouteGet(net.IP(dst.AsSlice()))
	if err != nil {
		return "", err
	}
	if len(routes) == 0 {
		return "", errors.New("no route")
	}
	link, err := l.Netlink.LinkByIndex(routes[0].LinkIndex)
	if err != nil {
		return "", fmt.Errorf("finding link %d: %w", routes[0].LinkIndex, err)
	}
	return link.Attrs().Name, nil
}
