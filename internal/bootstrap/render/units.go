package render

import (
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/firewall"
)

// Step names of the unit files and the one reload they may need.
const (
	StepUnits  = "units"
	StepReload = "reload"
)

// RenderUnits is every unit file the agent writes, first, so that systemd is
// reloaded at most once for all of them: the k0s unit's drop-ins (the
// overlay, the agent, the guard), each interface's drop-in that brings k0s
// back, and the links that enable the interfaces. The agent writes no unit
// of its own: wg-quick@.service is the image's template, and the k0s unit is
// the one `k0s install` creates.
//
// The reload step after it asks systemd, unit by unit, whether what it
// loaded is behind the disk (NeedDaemonReload), and reloads only then. On
// a first boot nothing is: no wg-quick@IF unit is loaded before the agent
// enables it, so its start loads it with its drop-in, and the k0s unit does
// not exist until `k0s install`, which writes it, enables it and reloads
// systemd itself, after every drop-in here is on disk. On an again run the
// k0s unit is loaded, so a changed drop-in takes the one reload, which must come
// before any interface stops: a unit k0s still Requires= would stop k0s
// with it.
func RenderUnits(in Inputs, guardOn bool) ([]plan.Step, error) {
	cfg := in.Config
	k0sUnit := K0sUnit(cfg.Role)
	units := plan.Step{Name: StepUnits}
	watched := []string{}
	if len(cfg.WireGuard) > 0 {
		dropIn, err := renderK0sDropIn(cfg.WireGuard)
		if err != nil {
			return nil, err
		}
		units.Files = append(units.Files, plan.File{Path: WireGuardDropInPath(cfg.Role), Mode: 0o644, DirMode: 0o755, Content: dropIn})
		for _, wg := range cfg.WireGuard {
			units.Files = append(units.Files, plan.File{Path: WgQuickK0sDropInPath(wg.Name), Mode: 0o644, DirMode: 0o755, Content: renderWgQuickK0sDropIn(cfg.Role)})
			units.Links = append(units.Links, wgQuickLinks(in.WgQuickLinks, wg.Name)...)
			watched = append(watched, plan.WgQuickUnit(wg.Name))
		}
	} else if len(in.Previous.Removed(cfg)) > 0 {
		// The last interface goes: so does the drop-in requiring it.
		units.Removes = append(units.Removes, WireGuardDropInPath(cfg.Role))
	}
	units.Files = append(units.Files, plan.File{Path: K0sAgentDropInPath(k0sUnit), Mode: 0o644, Content: RenderK0sAgentDropIn()})
	if guardOn {
		// k0s requires the guard: with the table not programmed, it stays down.
		units.Files = append(units.Files, plan.File{Path: firewall.K0sDropInPath(k0sUnit), Mode: 0o644, Content: firewall.K0sDropIn()})
	} else {
		// A guard turned off on an again run leaves no requirement behind.
		units.Removes = append(units.Removes, firewall.K0sDropInPath(k0sUnit))
	}
	watched = append(watched, k0sUnit)
	reload := plan.Step{Name: StepReload, Actions: []plan.Action{{
		Kind:     plan.ActionDaemonReload,
		Units:    watched,
		OnChange: pathsOf(units),
	}}}
	return []plan.Step{units, reload}, nil
}

// pathsOf is every node path a step writes or removes.
func pathsOf(s plan.Step) []string {
	var out []string
	for _, f := range s.Files {
		out = append(out, f.Path)
	}
	for _, l := range s.Links {
		out = append(out, l.Path)
	}
	return append(out, s.Removes...)
}
