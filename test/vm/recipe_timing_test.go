package vm

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// toK0s is one boot's way from network-online.target to k0s's start, on
// the guest's monotonic clock, with the milestones between.
type toK0s struct {
	online, k0s uint64 // microseconds since the kernel started
	milestones  string
}

// took is the time from network-online.target to k0s's start.
func (k toK0s) took() time.Duration {
	if k.k0s == 0 || k.k0s < k.online {
		return 0
	}
	return time.Duration(k.k0s-k.online) * time.Microsecond
}

// since is a milestone as seconds after network-online.target.
func (k toK0s) since(us uint64) string {
	if us == 0 {
		return "never"
	}
	return fmt.Sprintf("+%.1fs", (float64(us)-float64(k.online))/1e6)
}

// mainStartAt is the unit's main process's start, the moment logTimings calls k0s
// started.
func (m *Machine) mainStartAt(unit string) uint64 {
	return guest.Monotonic(m.Show(unit, "ExecMainStartTimestampMonotonic"), "ExecMainStartTimestampMonotonic")
}

func (m *Machine) onlineAt() uint64 {
	return guest.Monotonic(m.Show("network-online.target", "ActiveEnterTimestampMonotonic"), "ActiveEnterTimestampMonotonic")
}

func (m *Machine) enteredAt(unit string) uint64 {
	return guest.Monotonic(m.Show(unit, "ActiveEnterTimestampMonotonic"), "ActiveEnterTimestampMonotonic")
}

func (m *Machine) leftAt(unit string) uint64 {
	return guest.Monotonic(m.Show(unit, "InactiveExitTimestampMonotonic"), "InactiveExitTimestampMonotonic")
}

// agentToK0s: the agent starts at network-online.target, brings wg0 up,
// installs k0s and queues its start.
func agentToK0s(m *Machine, unit string) toK0s {
	k := toK0s{online: m.onlineAt(), k0s: m.mainStartAt(unit)}
	k.milestones = fmt.Sprintf("agent %s to %s, wg0 up %s (wg-quick ran %s), k0s %s",
		k.since(m.leftAt("corium-agent.service")), k.since(m.enteredAt("corium-agent.service")), k.since(m.enteredAt("wg-quick@wg0.service")), m.ran("wg-quick@wg0.service"), k.since(k.k0s))
	return k
}

// recipeToK0s: after network-online.target cloud-init's config stage runs,
// then multi-user.target, then cloud-final, whose runcmd brings wg0 up,
// installs k0s and queues its start.
func recipeToK0s(m *Machine, unit string) toK0s {
	k := toK0s{online: m.onlineAt(), k0s: m.mainStartAt(unit)}
	k.milestones = fmt.Sprintf("cloud-config %s to %s, cloud-final %s, wg0 up %s (wg-quick ran %s), k0s %s",
		k.since(m.leftAt("cloud-config.service")), k.since(m.enteredAt("cloud-config.service")), k.since(m.leftAt("cloud-final.service")),
		k.since(m.enteredAt("wg-quick@wg0.service")), m.ran("wg-quick@wg0.service"), k.since(k.k0s))
	return k
}

// waitActive waits for a unit to be active: the recipe's k0s is queued
// with --no-block by the last command of runcmd.
func waitActive(t *testing.T, m *Machine, unit string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		out, _ := m.Exec("systemctl", "is-active", unit)
		state := strings.TrimSpace(out)
		if state == "active" {
			return
		}
		if time.Now().After(deadline) || state == "failed" {
			t.Errorf("%s: %s is %q after %v", m.Name, unit, state, within)
			return
		}
		time.Sleep(2 * time.Second)
	}
}

// ran is how long a oneshot unit took from leaving inactive to active.
func (m *Machine) ran(unit string) string {
	p := m.Show(unit, "InactiveExitTimestampMonotonic", "ActiveEnterTimestampMonotonic")
	start, end := guest.Monotonic(p, "InactiveExitTimestampMonotonic"), guest.Monotonic(p, "ActiveEnterTimestampMonotonic")
	if start == 0 || end < start {
		return "never"
	}
	return fmt.Sprintf("%.1fs", float64(end-start)/1e6)
}

// logAgentJournal prints the agent's journal on the guest's clock: where
// its time went between systemd starting it and its own first line.
func logAgentJournal(t *testing.T, m *Machine) {
	t.Helper()
	out := m.MustExec("journalctl", "-b", "-o", "short-monotonic", "--no-pager", "-u", "corium-agent.service")
	m.Secrets.Logf(t, "%s: the agent's journal (network-online.target at %s):\n%s", m.Name, seconds(m.onlineAt()), out)
}

// startupCost runs each program twice from a fresh copy, so that neither
// the guest's page cache nor the emulator's translated code has it: the
// first run is what a program pays to start at boot, the second the same
// program warm. Seconds of /proc/uptime.
func startupCost(t *testing.T, m *Machine, programs map[string]string) {
	t.Helper()
	for name, cmd := range programs {
		bin, args, _ := strings.Cut(cmd, " ")
		script := `cp ` + bin + ` /run/startup-probe && sync && echo 3 > /proc/sys/vm/drop_caches
a=$(cut -d" " -f1 /proc/uptime); /run/startup-probe ` + args + ` >/dev/null 2>&1
b=$(cut -d" " -f1 /proc/uptime); /run/startup-probe ` + args + ` >/dev/null 2>&1
c=$(cut -d" " -f1 /proc/uptime); rm -f /run/startup-probe
echo "$a $b $c"`
		out, err := m.ExecIn(5*time.Minute, nil, "sh", "-c", script)
		f := strings.Fields(out)
		if err != nil || len(f) != 3 {
			t.Logf("%s: startup probe of %s: %v %s", m.Name, name, err, out)
			continue
		}
		var a, b, c float64
		fmt.Sscan(f[0], &a)
		fmt.Sscan(f[1], &b)
		fmt.Sscan(f[2], &c)
		t.Logf("%s: %s (%s) starts in %.2fs cold, %.2fs warm", m.Name, name, cmd, b-a, c-b)
	}
}

// assertNoXFRMModule: the agent opens netlink for the route family only.
// A handle of every family had the kernel load xfrm_user (modprobe, under
// emulation seconds) before the agent's first line, on a node that has no
// use for it.
func assertNoXFRMModule(t *testing.T, m *Machine) {
	t.Helper()
	if _, err := m.Exec("test", "-e", "/sys/module/xfrm_user"); err == nil {
		t.Errorf("%s: xfrm_user is loaded: something opened an XFRM netlink socket at boot (the agent opens the route family only)", m.Name)
	}
}

// xfrmControl: an XFRM netlink socket does load xfrm_user in this guest,
// so the module's absence above says no socket was opened.
func xfrmControl(t *testing.T, m *Machine) {
	t.Helper()
	m.MustExec("python3", "-c", "import socket; socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 6).close()")
	if _, err := m.Exec("test", "-e", "/sys/module/xfrm_user"); err != nil {
		t.Errorf("control: %s: an XFRM netlink socket did not load xfrm_user; the module check above proves nothing", m.Name)
	}
}
