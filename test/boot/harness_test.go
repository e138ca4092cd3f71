package boot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/guest"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// probeUnit is a oneshot that appends its name to the probe log, after an
// optional delay that makes the wrong order visible.
func probeUnit(name, sleep, dropIn string) string {
	cmd := "echo " + name + " >>/var/lib/probe/order"
	if sleep != "" {
		cmd = "sleep " + sleep + "; " + cmd
	}
	return "[Unit]\nDescription=boot test probe " + name + "\n" + dropIn +
		"\n[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=/bin/sh -c '" + cmd + "'\n"
}

// TestBootHarness checks the harness itself before anything is asserted with
// it: a node boots with the image's units, and systemd's ordering through a
// drop-in is observable, with negative controls. A slow unit and a unit
// ordered after it by an After=/Requires= drop-in (as k0s is ordered after
// wg-quick) run in that order; the same unit without the drop-in runs first.
// A unit with Requires= on a failing unit never runs; with After= alone, it
// does.
func TestBootHarness(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep")
	ns := netns.New(t, "cb-harness")
	n := NewNode(t, "harness", ns)

	units := map[string]string{
		"probe-slow":           probeUnit("slow", "2", ""),
		"probe-gated":          probeUnit("gated", "", ""),
		"probe-ungated":        probeUnit("ungated", "", ""),
		"probe-broken":         "[Unit]\nDescription=boot test probe broken\n[Service]\nType=oneshot\nExecStart=/bin/false\n",
		"probe-needs-broken":   probeUnit("needs-broken", "", ""),
		"probe-ignores-broken": probeUnit("ignores-broken", "", "After=probe-broken.service\n"),
	}
	for name, text := range units {
		n.WriteFile("/etc/systemd/system/"+name+".service", []byte(text), 0o644)
		n.MkdirAll("/etc/systemd/system/multi-user.target.wants", 0o755)
		if err := symlink("../"+name+".service", n.Path("/etc/systemd/system/multi-user.target.wants/"+name+".service")); err != nil {
			t.Fatal(err)
		}
	}
	// The drop-ins have the shape of the agent's k0s drop-ins.
	n.WriteFile("/etc/systemd/system/probe-gated.service.d/10-order.conf",
		[]byte("[Unit]\nAfter=probe-slow.service\nRequires=probe-slow.service\n"), 0o644)
	n.WriteFile("/etc/systemd/system/probe-needs-broken.service.d/10-order.conf",
		[]byte("[Unit]\nAfter=probe-broken.service\nRequires=probe-broken.service\n"), 0o644)
	n.MkdirAll("/var/lib/probe", 0o755)

	if state := n.Boot(); state != "degraded" {
		// probe-broken fails by design, so a healthy harness is degraded.
		t.Errorf("system state = %s, want degraded (probe-broken fails by design)", state)
	}
	order := strings.Fields(n.ReadFile("/var/lib/probe/order"))
	pos := map[string]int{}
	for i, name := range order {
		pos[name] = i + 1
	}
	t.Logf("probe order: %v", order)
	if pos["slow"] == 0 || pos["gated"] == 0 || pos["ungated"] == 0 {
		t.Fatalf("probes missing from %v", order)
	}
	if pos["gated"] < pos["slow"] {
		t.Errorf("the unit with the After=/Requires= drop-in ran before the unit it is ordered after: %v", order)
	}
	if pos["ungated"] > pos["slow"] {
		t.Errorf("negative control: the unit without a drop-in waited for the slow unit, so the ordering check proves nothing: %v", order)
	}
	if pos["needs-broken"] != 0 {
		t.Errorf("the unit with Requires= on a failed unit ran: %v", order)
	}
	if pos["ignores-broken"] == 0 {
		t.Errorf("negative control: the unit with After= alone on a failed unit did not run: %v", order)
	}
	journal := n.Journal(n.BootID)
	if e := jobDone(journal, "probe-needs-broken.service", "start"); e == nil || e.JobResult != "dependency" {
		t.Errorf("journal: probe-needs-broken.service start job = %+v, want result dependency", e)
	}

	// The image's own pieces, seen by the booted systemd.
	fw := n.Show("corium-firewall.service", "ConditionResult", "ActiveState", "UnitFileState")
	if fw["ConditionResult"] != "no" || fw["ActiveState"] != "inactive" || fw["UnitFileState"] != "enabled" {
		t.Errorf("corium-firewall.service on a node without a guard = %v, want enabled, skipped by its condition", fw)
	}
	// No configuration anywhere: the agent says so, leaves the node
	// unconfigured and succeeds, and writes no marker (a config given later
	// is still applied on the next boot).
	agent := n.Show("corium-agent.service", "ConditionResult", "UnitFileState", "Result", "ExecMainStartTimestampMonotonic")
	if agent["ConditionResult"] != "yes" || agent["UnitFileState"] != "enabled" || agent["Result"] != "success" ||
		guest.Monotonic(agent, "ExecMainStartTimestampMonotonic") == 0 {
		t.Errorf("corium-agent.service on an unconfigured node = %v, want enabled, run, success", agent)
	}
	var st status.Status
	if raw := n.MustExec("cat", status.Path); json.Unmarshal([]byte(raw), &st) != nil || st.Outcome != status.Unconfigured {
		t.Errorf("status on an unconfigured node: %s, want outcome %q", raw, status.Unconfigured)
	}
	if n.Exists("/var/lib/corium/provisioned") {
		t.Error("an unconfigured node got the provisioned marker")
	}
	for _, dir := range []string{"/var/lib/corium", "/etc/corium"} {
		if mode := strings.TrimSpace(n.MustExec("stat", "-c", "%a", dir)); mode != "700" {
			t.Errorf("%s mode = %s, want 700 (tmpfiles.d)", dir, mode)
		}
	}
	n.Shutdown()
}
