package inspect

import (
	"errors"
	"fmt"
	"net"
	"net/netip"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/firewall"
)

// Guard reads the guard in force and compares it with the rendered one;
// NftGuard is the live one.
type Guard interface {
	State(g firewall.Guard) (firewall.Report, error)
}

// firewall reports the guard: the rendered one compared with the kernel's.
func (in *inspection) firewall() {
	f := &Firewall{}
	in.r.Firewall = f
	g, err := firewall.Load(in.o.Root)
	if err != nil {
		if errors.Is(err, firewall.ErrNotRendered) {
			f.Status, f.Reason = string(firewall.Missing), "no guard was rendered at "+firewall.FilePath+" on a provisioned node; run corium-agent apply --again"
			return
		}
		f.Status, f.Reason = "unknown", err.Error()
		in.unknown("firewall", f.Reason)
		return
	}
	if in.o.Guard == nil {
		f.Status, f.Reason = "unknown", why(in.o.GuardWhy)
		in.unknown("firewall", f.Reason)
		return
	}
	rep, err := in.o.Guard.State(g)
	if err != nil {
		f.Status, f.Reason = "unknown", err.Error()
		in.unknown("firewall", f.Reason)
		return
	}
	f.Status, f.Reason = string(rep.Status), rep.Reason
}

// k0s reports the k0s unit and the address k0s was installed with.
func (in *inspection) k0s() {
	k := &K0s{Unit: bootstrap.K0sUnit(in.cfg.Role)}
	_, k.UnitState, _ = in.unitState(k.Unit)
	k.InstalledAddress, k.Via = installedAddress(in.o.Root, in.run)
	in.r.K0s = k
}

// NftGuard is the guard in the kernel, read over a netlink nftables
// connection (of the namespace it was opened in).
type NftGuard struct{ Conn firewall.Conn }

func (n NftGuard) State(g firewall.Guard) (firewall.Report, error) {
	r, err := firewall.State(n.Conn, g)
	if err != nil {
		return r, fmt.Errorf("reading the guard: %w", err)
	}
	return r, nil
}

// LinkFacts reads links and the default route over netlink.
type LinkFacts struct{ Netlink bootstrap.Netlink }

func (l LinkFacts) Facts() (*bootstrap.Facts, error) { return bootstrap.GatherFacts(l.Netlink) }

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
