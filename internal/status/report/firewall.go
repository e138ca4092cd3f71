package report

import (
	"errors"
	"fmt"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/guardfile"
	"github.com/corium/corium-agent/internal/firewall/nft"
)

// Guard reads the guard in force and compares it with the rendered one;
// NftGuard is the live one.
type Guard interface {
	State(g firewall.Guard) (nft.Report, error)
}

// firewall reports the guard: the rendered one compared with the kernel's,
// and what is wrong with the rendered file itself.
func (in *inspection) firewall() {
	f := &Firewall{}
	in.r.Firewall = f
	g, err := guardfile.Load(in.o.Root)
	switch {
	case errors.Is(err, firewall.ErrNotRendered):
		f.Status, f.Reason = string(nft.Missing), in.notRendered()
		return
	case errors.Is(err, firewall.ErrBadFile):
		// Known to be broken, not merely unread: corium-firewall fails on
		// this file at boot, and k0s, which requires it, with it.
		f.Status, f.Reason = "unknown", "the rendered guard cannot be compared with the kernel's"
		f.FileProblem = err.Error() + "; corium-firewall fails on it, so k0s does not start; run corium-agent apply --again to render the guard again"
		return
	case err != nil:
		f.Status, f.Reason = "unknown", err.Error()
		in.unknown("firewall", f.Reason)
		return
	}
	f.Holds = g.Holds()
	f.FileProblem = g.Outdated()
	if f.FileProblem == "" {
		f.FileProblem = fileBehind(g, in.cfg, in.eff)
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

// notRendered says what a provisioned node without its guard file means:
// the k0s drop-in decides whether k0s starts without it.
func (in *inspection) notRendered() string {
	unit := render.K0sUnit(in.cfg.Role)
	dropIn := firewall.K0sDropInPath(unit)
	content, err := in.o.Root.ReadFile(dropIn)
	switch {
	case err != nil:
		return "no guard was rendered at " + firewall.FilePath + " on a provisioned node; run corium-agent apply --again"
	case firewall.DropInAssertsGuard(content):
		return fmt.Sprintf("no guard at %s, which %s requires (%s asserts it): k0s will not start; run corium-agent apply --again to render the guard again", firewall.FilePath, unit, dropIn)
	}
	return fmt.Sprintf("no guard at %s, and %s, from an older agent, does not keep %s from starting without it: k0s runs with its cluster ports open to every link; run corium-agent apply --again to render the guard and the drop-in again", firewall.FilePath, dropIn, unit)
}

// NftGuard is the guard in the kernel, read over a netlink nftables
// connection (of the namespace it was opened in).
type NftGuard struct{ Conn nft.Conn }

func (n NftGuard) State(g firewall.Guard) (nft.Report, error) {
	r, err := nft.State(n.Conn, g)
	if err != nil {
		return r, fmt.Errorf("reading the guard: %w", err)
	}
	return r, nil
}
