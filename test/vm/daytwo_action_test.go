package vm

import (
	"encoding/json"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/status"
)

// wg0Carrier is the action the machine's last agent run took to carry
// wg0's new file to the running device, read from the run's own record
// (status.Path): reload, restart or wireguard-peers; "" when none ran, the
// file being unchanged.
func wg0Carrier(t *testing.T, m *Machine) string {
	t.Helper()
	var st status.Status
	raw := m.MustExec("cat", status.Path)
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatalf("%s: %s: %v", m.Name, status.Path, err)
	}
	for _, s := range st.Steps {
		for _, a := range s.Actions {
			if a.Unit != plan.WgQuickUnit("wg0") || a.Outcome != "done" {
				continue
			}
			switch plan.ActionKind(a.Kind) {
			case plan.ActionReload, plan.ActionRestart, plan.ActionWireGuardPeers:
				return a.Kind
			}
		}
	}
	return ""
}
