package render

import (
	"io"

	"github.com/coreos/go-systemd/v22/unit"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/systemd"
)

// AgentUnit is the agent's own unit, which the k0s unit is ordered after.
const AgentUnit = "corium-agent.service"

// K0sAgentDropInPath is the drop-in ordering unitName after the agent.
func K0sAgentDropInPath(unitName string) string {
	return systemd.DropInPath(unitName, "10-corium-agent.conf")
}

// RenderK0sAgentDropIn orders the k0s unit after the agent, so k0s never
// starts while the agent is still provisioning, and makes the marker a
// condition of its start: After= alone lets k0s start once the agent's unit
// ended, also when it failed, so a unit left enabled by an earlier
// unfinished run would start on a half-provisioned node. A Requires= on the
// agent would not do: the agent is a oneshot skipped by its own condition
// once the node is provisioned.
func RenderK0sAgentDropIn() []byte {
	body, _ := io.ReadAll(unit.Serialize([]*unit.UnitOption{
		unit.NewUnitOption("Unit", "After", AgentUnit),
		unit.NewUnitOption("Unit", "ConditionPathExists", status.MarkerPath),
	}))
	return append([]byte(plan.Managed("#")), body...)
}
