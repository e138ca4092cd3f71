package boot

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestBootReloads counts systemd's reloads in a booted node's journal. A
// first boot has exactly one, and it is `k0s install`'s (the stand-in's
// systemctl, as the real one's service library runs it): the agent writes
// every unit file before anything loads the units they are for, so it needs
// none. The control is an again run with a k0s drop-in the agent must rewrite on
// a loaded k0s unit: systemd says the unit is behind the disk, and the agent
// reloads, once, which the same count sees.
func TestBootReloads(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip", "nft")
	ns := netns.New(t, "cb-rl")
	n := NewNode(t, "reload", ns)
	n.WriteFile("/etc/corium/config.yaml", []byte(benchConfig(fixture.GenKey(t), fixture.GenKey(t))), 0o600)
	n.Boot()
	t.Cleanup(n.Shutdown)
	assertProvisioned(t, n)

	first := reloadsBy(n.Journal(n.BootID))
	if len(first) != 1 || !strings.Contains(first[0], "'systemctl'") {
		t.Errorf("first boot: reloads requested %q, want exactly one, by the install's systemctl\n%s", first, n.JournalText(n.BootID))
	}
	for _, r := range first {
		if strings.Contains(r, "('corium-agent')") {
			t.Errorf("first boot: the agent reloaded systemd: %s", r)
		}
	}

	// An again run, the same document, with the agent's drop-in on the loaded
	// k0s unit gone: the agent writes it again and must reload for it.
	n.MustRemove("/etc/systemd/system/k0scontroller.service.d/10-corium-agent.conf")
	before := len(reloadsBy(n.Journal(n.BootID)))
	if out, err := n.Exec("corium-agent", "apply", "--again"); err != nil {
		t.Fatalf("apply --again: %v\n%s", err, out)
	}
	after := reloadsBy(n.Journal(n.BootID))[before:]
	if len(after) != 1 || !strings.Contains(after[0], "('corium-agent')") {
		t.Errorf("apply --again with a drop-in rewritten on the loaded k0s unit: reloads %q, want exactly one, by the agent", after)
	}
	if got := n.Show("k0scontroller.service", "NeedDaemonReload")["NeedDaemonReload"]; got != "no" {
		t.Errorf("k0scontroller.service after apply --again: NeedDaemonReload=%s, want no", got)
	}

	// And with nothing to rewrite, nothing is reloaded.
	before = len(reloadsBy(n.Journal(n.BootID)))
	if out, err := n.Exec("corium-agent", "apply", "--again"); err != nil {
		t.Fatalf("second apply --again: %v\n%s", err, out)
	}
	if again := reloadsBy(n.Journal(n.BootID))[before:]; len(again) != 0 {
		t.Errorf("apply --again with nothing changed: reloads %q, want none", again)
	}
}

// reloadsBy is systemd's record of each reload requested of it, which names
// the client: "Reload requested from client PID N ('COMM') (unit U)...".
func reloadsBy(entries []Entry) []string {
	var out []string
	for _, e := range messages(entries, "Reload requested from client PID") {
		out = append(out, e.Message)
	}
	return out
}
