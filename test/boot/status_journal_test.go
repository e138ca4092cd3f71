package boot

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/status/report"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestBootStatusQuotesOnlySystemdAndTheAgent: a derived image's
// ExecStartPre= prints a marker at err level ("<3>", which
// SyslogLevelPrefix= reads as the line's priority), has systemd-cat log
// another under the agent's own syslog identifier, and fails the start before the
// agent ran. status reports the failed start with systemd's lines about it,
// and quotes neither marker: only PID 1's lines and the agent's own (its
// identifier and its command name) are read.
func TestBootStatusQuotesOnlySystemdAndTheAgent(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip")
	pre, logged := "PRESTART"+fixture.RandHex(8), "LOGGER"+fixture.RandHex(8)
	n := NewNode(t, "status-journal", netns.New(t, "cb-sj"))
	n.WriteFile("/etc/corium/config.yaml", []byte("role: single\nnode:\n  name: status-journal\n"), 0o600)
	n.WriteFile("/etc/systemd/system/corium-agent.service.d/50-derived-image.conf", []byte(`[Service]
ExecStartPre=/bin/sh -c 'echo "<3>`+pre+`"; systemd-cat -t corium-agent -p err echo `+logged+`; exit 3'
`), 0o644)
	n.Boot()
	t.Cleanup(n.Shutdown)

	// The markers are in the journal at err level: what the old reading of
	// the unit's lines quoted. journald takes a stream's lines when it gets
	// to them, after the unit may have failed: wait for both.
	var inJournal int
	for range 40 {
		inJournal = 0
		for _, e := range n.Journal(n.BootID) {
			if strings.Contains(e.Message, pre) || strings.Contains(e.Message, logged) {
				inJournal++
			}
		}
		if inJournal == 2 {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if inJournal != 2 {
		t.Fatalf("%d of the two markers are in the unit's journal; the test did not make them:\n%s", inJournal, n.JournalText(n.BootID))
	}
	out, _ := n.Exec("corium-agent", "status", "--format", "json")
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.AgentUnit == nil {
		t.Fatalf("corium-agent status --format json reports no failed start of the agent's unit (%v):\n%s", err, out)
	}
	if len(r.AgentUnit.Journal) == 0 {
		t.Errorf("status quotes none of systemd's lines about the failed start:\n%s", out)
	}
	text, _ := n.Exec("corium-agent", "status")
	for _, m := range []string{pre, logged} {
		if strings.Contains(out, m) || strings.Contains(text, m) {
			t.Errorf("status quotes %s, which a process other than systemd and the agent logged:\n%s\n%s", m, out, text)
		}
	}
}
