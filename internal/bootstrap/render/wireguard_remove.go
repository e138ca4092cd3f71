package render

import (
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
)

// StepWireGuardRemoved names the again run's step that takes down interfaces
// the configuration dropped.
const StepWireGuardRemoved = "wireguard-removed"

// renderRemoved takes down each interface the last run made that cfg no
// longer names: stop wg-quick@IF (its ExecStop reads the file, so the file
// goes after), then remove its file, its enable links and its drop-in, which
// disables it as `systemctl disable` would. It runs after the units and
// their reload, which have already rewritten the k0s drop-in without the
// interface: stopping a unit k0s still Requires= would stop k0s with it.
// No reload follows: the stopped unit's links and drop-in are gone from
// disk, which is all the next boot reads, and nothing starts it before. A
// file without the managed-by header is not the agent's, and its interface
// is left alone.
func renderRemoved(cfg *schema.Config, prev *Previous, links map[string][]plan.Link) plan.Step {
	step := plan.Step{Name: StepWireGuardRemoved}
	removed := prev.Removed(cfg)
	if len(removed) == 0 {
		return step
	}
	for _, wg := range removed {
		_, onDisk := prev.Confs[wg.Name]
		if onDisk && !prev.managedConf(wg.Name) {
			continue
		}
		step.Actions = append(step.Actions, plan.Action{Kind: plan.ActionStop, Unit: plan.WgQuickUnit(wg.Name)})
		if onDisk {
			step.Removes = append(step.Removes, WireGuardConfPath(wg.Name))
		}
		for _, l := range wgQuickLinks(links, wg.Name) {
			step.Removes = append(step.Removes, l.Path)
		}
		step.Removes = append(step.Removes, WgQuickK0sDropInPath(wg.Name))
	}
	return step
}
