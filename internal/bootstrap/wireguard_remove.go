package bootstrap

import "github.com/corium/corium-agent/internal/schema"

// StepWireGuardRemoved names the day-two step that takes down interfaces
// the configuration dropped.
const StepWireGuardRemoved = "wireguard-removed"

// renderRemoved takes down each interface the last run made that cfg no
// longer names: stop wg-quick@IF (its ExecStop reads the file, so the file
// goes after), disable it, then remove its file and its enable links. It runs
// after the overlay step, which has already rewritten the k0s drop-in
// without the interface and reloaded systemd: stopping a unit k0s still
// Requires= would stop k0s with it. A file without the managed-by header is
// not the agent's, and its interface is left alone.
func renderRemoved(cfg *schema.Config, prev *Previous, links map[string][]Link) Step {
	step := Step{Name: StepWireGuardRemoved}
	removed := prev.removed(cfg)
	if len(removed) == 0 {
		return step
	}
	if len(cfg.WireGuard) == 0 {
		// The overlay step removed the drop-in; systemd must forget it
		// before anything is stopped.
		dropIn := WireGuardDropInPath(cfg.Role)
		step.Actions = append(step.Actions, Action{Kind: ActionDaemonReload, OnChange: []string{dropIn}})
	}
	stops := 0
	for _, wg := range removed {
		conf, onDisk := prev.Confs[wg.Name]
		if onDisk && !managedFile(conf) {
			continue
		}
		stops++
		unitName := WgQuickUnit(wg.Name)
		step.Actions = append(step.Actions,
			Action{Kind: ActionStop, Unit: unitName},
			Action{Kind: ActionDisable, Unit: unitName},
		)
		if onDisk {
			step.Removes = append(step.Removes, WireGuardConfPath(wg.Name))
		}
		for _, l := range wgQuickLinks(links, wg.Name) {
			step.Removes = append(step.Removes, l.Path)
		}
		step.Removes = append(step.Removes, WgQuickK0sDropInPath(wg.Name))
	}
	if stops > 0 {
		// As `systemctl disable` does after removing the links.
		step.Actions = append(step.Actions, Action{Kind: ActionDaemonReload})
	}
	return step
}
