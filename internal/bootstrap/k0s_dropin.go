package bootstrap

import (
	"io"

	"github.com/coreos/go-systemd/v22/unit"

	"github.com/corium/corium-agent/internal/rootfs"
)

// AgentUnit is the agent's own unit, which the k0s unit is ordered after.
const AgentUnit = "corium-agent.service"

// K0sAgentDropInPath is the drop-in ordering unitName after the agent.
func K0sAgentDropInPath(unitName string) string {
	return "/etc/systemd/system/" + unitName + ".d/10-corium-agent.conf"
}

// RenderK0sAgentDropIn orders the k0s unit after the agent, so k0s never
// starts while the agent is still provisioning, also when a unit left by an
// earlier unfinished run is already enabled. Only After=: a Requires= on a
// oneshot that is skipped once provisioned would add nothing.
func RenderK0sAgentDropIn() []byte {
	body, _ := io.ReadAll(unit.Serialize([]*unit.UnitOption{
		unit.NewUnitOption("Unit", "After", AgentUnit),
	}))
	return append([]byte(rootfs.Managed("#")), body...)
}
