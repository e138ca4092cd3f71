package boot

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/status/report"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

const guardFile = "/var/lib/corium/firewall.json"

// newGuardedNode is a single node with the guard on, provisioned by its
// first boot, whose k0s stand-in started after corium-firewall.
func newGuardedNode(t *testing.T, name string) *Node {
	t.Helper()
	keyA, keyB := fixture.GenKey(t), fixture.GenKey(t)
	ns, other := netns.New(t, "cb-"+name), netns.New(t, "cb-"+name+"p")
	netns.Veth(t, ns, "eth0", underlayA+"/24", other, "eth0", underlayB+"/24")
	n := NewNode(t, name, ns)
	n.WriteFile("/etc/corium/config.yaml", []byte(nodeAConfig(keyA, keyB)), 0o600)
	n.Boot()
	t.Cleanup(n.Shutdown)
	assertProvisioned(t, n)
	assertK0sAfter(t, n, "k0scontroller.service", "corium-agent.service", "corium-firewall.service")
	if !n.Exists(guardFile) {
		t.Fatalf("no %s after the first boot with the guard on", guardFile)
	}
	return n
}

// guardStatus is the firewall part of `corium-agent status --format json`
// run inside the node.
func guardStatus(t *testing.T, n *Node) report.Firewall {
	t.Helper()
	out, _ := n.Exec("corium-agent", "status", "--format", "json")
	var r report.Report
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.Firewall == nil {
		t.Fatalf("%s: corium-agent status --format json: %v\n%s", n.Name, err, out)
	}
	return *r.Firewall
}

// TestBootGuardFileGone: on a guarded node whose firewall.json is gone,
// corium-firewall skips itself (as on an unconfigured node, where that is
// right), and the assertion in k0s's drop-in keeps k0s from starting in its
// place; status says why and what to run, and what it says to run brings
// k0s back. A file that is there but torn fails corium-firewall itself, and
// k0s with it.
func TestBootGuardFileGone(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip", "nft")
	n := newGuardedNode(t, "guard-gone")
	k0s := "k0scontroller.service"

	t.Run("file removed", func(t *testing.T) {
		n.Shutdown()
		n.MustRemove(guardFile)
		n.Boot()
		fw := n.Show("corium-firewall.service", "ConditionResult", "Result")
		if fw["ConditionResult"] != "no" || fw["Result"] != "success" {
			t.Errorf("corium-firewall.service without its file = %v, want skipped by its condition (a success to systemd)", fw)
		}
		if s := n.Show(k0s, "AssertResult", "ActiveState"); s["AssertResult"] != "no" || s["ActiveState"] == "active" {
			t.Errorf("%s without the guard's file = %v, want its assertion failed and not active", k0s, s)
		}
		if n.standIn().StartedIn(n.BootID) {
			t.Errorf("the k0s stand-in started without the guard's file:\n%s", n.JournalText(n.BootID))
		}
		journal := n.Journal(n.BootID)
		if e := jobDone(journal, k0s, "start"); e == nil || e.JobResult != "assert" {
			t.Errorf("journal: %s start job = %+v, want result assert", k0s, e)
		}
		if got := messages(journal, "Assertion failed"); len(got) == 0 {
			t.Errorf("journal has no assertion failure:\n%s", n.JournalText(n.BootID))
		} else {
			t.Logf("journal: %s", got[0].Message)
		}
		sysctl, _ := n.Exec("systemctl", "status", "--no-pager", k0s)
		t.Logf("systemctl status %s:\n%s", k0s, sysctl)
		f := guardStatus(t, n)
		if f.Status != "missing" || !strings.Contains(f.Reason, "k0s will not start") || !strings.Contains(f.Reason, "run corium-agent apply --again") {
			t.Errorf("status firewall = %+v, want missing, saying k0s will not start and what to run", f)
		}
		out, _ := n.Exec("corium-agent", "status")
		if !strings.HasPrefix(out, "degraded: ") || !strings.Contains(out, "firewall:     missing: no guard at "+guardFile) {
			t.Errorf("corium-agent status:\n%s", out)
		}
		t.Logf("corium-agent status:\n%s", out)

		// What status says to run.
		if out, err := n.Exec("corium-agent", "apply", "--again"); err != nil {
			t.Fatalf("apply --again: %v\n%s", err, out)
		}
		if !n.Exists(guardFile) {
			t.Fatalf("apply --again did not render %s", guardFile)
		}
		n.MustExec("systemctl", "start", k0s)
		if s := n.Show(k0s, "ActiveState", "AssertResult"); s["ActiveState"] != "active" || s["AssertResult"] != "yes" {
			t.Errorf("%s after apply --again = %v, want active", k0s, s)
		}
		if f := guardStatus(t, n); f.Status != "current" {
			t.Errorf("status firewall after apply --again = %+v, want current", f)
		}
	})

	t.Run("file torn", func(t *testing.T) {
		n.Shutdown()
		n.WriteFile(guardFile, []byte(`{"version": 2, "on": tr`), 0o600)
		if state := n.Boot(); state != "degraded" {
			t.Errorf("system state with a torn guard file = %s, want degraded", state)
		}
		if fw := n.Show("corium-firewall.service", "ConditionResult", "Result", "ActiveState"); fw["ConditionResult"] != "yes" || fw["ActiveState"] != "failed" {
			t.Errorf("corium-firewall.service with a torn file = %v, want run and failed", fw)
		}
		if e := jobDone(n.Journal(n.BootID), k0s, "start"); e == nil || e.JobResult != "dependency" {
			t.Errorf("journal: %s start job = %+v, want result dependency (Requires= corium-firewall)", k0s, e)
		}
		if n.standIn().StartedIn(n.BootID) {
			t.Error("the k0s stand-in started with a torn guard file")
		}
		if f := guardStatus(t, n); !strings.Contains(f.FileProblem, "the rendered guard cannot be used") || !strings.Contains(f.FileProblem, "k0s does not start") {
			t.Errorf("status firewall with a torn file = %+v", f)
		}
	})
}

// TestBootGuardSurvivesNftablesService: nftables.service flushes the whole
// ruleset when it loads /etc/nftables.conf (which begins with "flush
// ruleset") and when it stops. Its drop-in from image/ puts the guard back
// each time, checked with nft in the node's namespace and with status; with
// the drop-in masked (the negative control) the same restart leaves the
// guard gone, and status is what says so.
func TestBootGuardSurvivesNftablesService(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip", "nft")
	n := newGuardedNode(t, "guard-nft")
	n.WriteFile("/etc/nftables.conf", []byte("#!/usr/sbin/nft -f\nflush ruleset\n\ntable inet filter {\n\tchain input {\n\t\ttype filter hook input priority filter;\n\t}\n}\n"), 0o755)
	guardLoaded := func() bool {
		_, err := n.Exec("nft", "list", "table", "inet", "corium")
		return err == nil
	}
	hostRules := func() bool {
		_, err := n.Exec("nft", "list", "table", "inet", "filter")
		return err == nil
	}

	for _, verb := range []string{"restart", "reload", "stop"} {
		t.Run(verb, func(t *testing.T) {
			if verb == "reload" {
				n.MustExec("systemctl", "start", "nftables.service")
			}
			n.MustExec("systemctl", verb, "nftables.service")
			if !guardLoaded() {
				t.Errorf("table inet corium is gone after systemctl %s nftables:\n%s", verb, n.JournalText(n.BootID))
			}
			if verb != "stop" && !hostRules() {
				t.Errorf("nftables.service did not load /etc/nftables.conf on %s; the check proves nothing", verb)
			}
			f := guardStatus(t, n)
			if f.Status != "current" {
				t.Errorf("status firewall after systemctl %s nftables = %+v, want current", verb, f)
			}
			t.Logf("after systemctl %s nftables: table inet corium loaded %v, status firewall %s: %s", verb, guardLoaded(), f.Status, f.Reason)
		})
	}

	t.Run("negative control: without the drop-in", func(t *testing.T) {
		// An /etc drop-in of the same name replaces the image's.
		n.WriteFile("/etc/systemd/system/nftables.service.d/50-corium-guard.conf", []byte("# masked by the boot test\n"), 0o644)
		n.MustExec("systemctl", "daemon-reload")
		n.MustExec("systemctl", "restart", "nftables.service")
		if guardLoaded() {
			t.Fatal("the guard survived a restart without the drop-in: the flush the checks above rely on did not happen")
		}
		f := guardStatus(t, n)
		if f.Status != "missing" || !strings.Contains(f.Reason, "run corium-agent firewall apply") {
			t.Errorf("status firewall with the guard flushed = %+v, want missing and what to run", f)
		}
		t.Logf("without the drop-in, after systemctl restart nftables: status firewall %s: %s", f.Status, f.Reason)
		n.MustRemove("/etc/systemd/system/nftables.service.d/50-corium-guard.conf")
		n.MustExec("systemctl", "daemon-reload")
		n.MustExec("systemctl", "reload", "nftables.service")
		if !guardLoaded() {
			t.Error("the guard did not come back on reload with the drop-in in place again")
		}
	})
}
