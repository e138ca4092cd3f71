package vm

import (
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// The order is read from systemd's own records: a unit's After= as systemd
// resolved it, and each unit's timestamps on the guest's monotonic clock
// (critical-chain would show only the slowest predecessor).

// assertK0sOrder checks that k0s is ordered after the overlay, the guard
// and the agent, and in this boot started only after each had finished.
// On a later boot the agent is skipped: its condition was checked first.
func assertK0sOrder(t *testing.T, m *Machine, k0sUnit string) {
	t.Helper()
	after := m.afterList(k0sUnit)
	k := m.Show(k0sUnit, "InactiveExitTimestampMonotonic")
	started := guest.Monotonic(k, "InactiveExitTimestampMonotonic")
	var evidence []string
	for _, u := range []string{"wg-quick@wg0.service", "corium-firewall.service", "corium-agent.service"} {
		if !slices.Contains(after, u) {
			t.Errorf("%s: %s is not ordered after %s (After=%v)", m.Name, k0sUnit, u, after)
		}
		p := m.Show(u, "ActiveEnterTimestampMonotonic", "ConditionResult", "ConditionTimestampMonotonic")
		done := guest.Monotonic(p, "ActiveEnterTimestampMonotonic")
		if p["ConditionResult"] == "no" {
			done = guest.Monotonic(p, "ConditionTimestampMonotonic")
		}
		if done == 0 || started == 0 || done > started {
			t.Errorf("%s: %s started at %s, before %s was done (%s, %v)", m.Name, k0sUnit, seconds(started), u, seconds(done), p)
		}
		evidence = append(evidence, u+" "+seconds(done))
	}
	t.Logf("%s: %s started at %s, after %s", m.Name, k0sUnit, seconds(started), strings.Join(evidence, ", "))
}

// assertAgentOrder checks the agent's place in a first boot: after
// network-online.target (reached through NetworkManager) and cloud-init's
// network stage, not after cloud-final, which ran after the agent finished.
func assertAgentOrder(t *testing.T, m *Machine) {
	t.Helper()
	after := m.afterList("corium-agent.service")
	for _, u := range []string{"network-online.target", "cloud-init-network.service"} {
		if !slices.Contains(after, u) {
			t.Errorf("%s: corium-agent.service is not ordered after %s (After=%v)", m.Name, u, after)
		}
	}
	if slices.Contains(after, "cloud-final.service") {
		t.Errorf("%s: corium-agent.service is ordered after cloud-final.service (an ordering cycle through multi-user.target)", m.Name)
	}
	agent := m.Show("corium-agent.service", "InactiveExitTimestampMonotonic", "ActiveEnterTimestampMonotonic")
	start, end := guest.Monotonic(agent, "InactiveExitTimestampMonotonic"), guest.Monotonic(agent, "ActiveEnterTimestampMonotonic")
	online := guest.Monotonic(m.Show("network-online.target", "ActiveEnterTimestampMonotonic"), "ActiveEnterTimestampMonotonic")
	ci := m.Show("cloud-init-network.service", "Result", "ActiveEnterTimestampMonotonic")
	ciDone := guest.Monotonic(ci, "ActiveEnterTimestampMonotonic")
	final := guest.Monotonic(m.Show("cloud-final.service", "InactiveExitTimestampMonotonic"), "InactiveExitTimestampMonotonic")
	switch {
	case online == 0 || start < online:
		t.Errorf("%s: the agent started at %s, before network-online.target (%s)", m.Name, seconds(start), seconds(online))
	case ci["Result"] != "success" || ciDone == 0 || start < ciDone:
		t.Errorf("%s: the agent started at %s; cloud-init-network.service %v: want it done first", m.Name, seconds(start), ci)
	case final == 0 || final < end:
		t.Errorf("%s: cloud-final.service started at %s, want after the agent finished (%s)", m.Name, seconds(final), seconds(end))
	}
	var shown []string
	for _, u := range after {
		if strings.HasPrefix(u, "network") || strings.HasPrefix(u, "cloud-") || strings.HasPrefix(u, "time-sync") {
			shown = append(shown, u)
		}
	}
	t.Logf("%s: corium-agent.service After=%s; network-online.target %s, cloud-init-network %s, agent %s to %s, cloud-final started %s",
		m.Name, strings.Join(shown, " "), seconds(online), seconds(ciDone), seconds(start), seconds(end), seconds(final))
}
