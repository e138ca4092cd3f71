package vm

import (
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// logTimings prints one boot's milestones on the guest's own clock (seconds
// since the kernel started): network-online.target reached, the agent's end
// (or that it was skipped) and k0s's start, and the wall-clock time from
// QEMU's start until systemd had finished booting.
func logTimings(t *testing.T, m *Machine, way, k0sUnit string) {
	t.Helper()
	online := guest.Monotonic(m.Show("network-online.target", "ActiveEnterTimestampMonotonic"), "ActiveEnterTimestampMonotonic")
	agent := m.Show("corium-agent.service", "ConditionResult", "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic")
	agentEnd := "skipped (provisioned)"
	if agent["ConditionResult"] == "yes" {
		start, end := guest.Monotonic(agent, "ExecMainStartTimestampMonotonic"), guest.Monotonic(agent, "ActiveEnterTimestampMonotonic")
		agentEnd = seconds(end)
		if end > start {
			agentEnd += " (ran " + seconds(end-start) + ")"
		}
	}
	k0s := guest.Monotonic(m.Show(k0sUnit, "ExecMainStartTimestampMonotonic"), "ExecMainStartTimestampMonotonic")
	t.Logf("TIMING %s boot %d (%s): network-online %s, agent done %s, k0s started %s; booted after %v wall clock",
		m.Name, m.Boots, way, seconds(online), agentEnd, seconds(k0s), m.booted.Round(time.Second))
}
