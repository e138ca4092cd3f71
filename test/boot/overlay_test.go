package boot

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/guest"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// A two-node cluster on TEST-NET underlay addresses with a 10.77.0.0/24
// overlay.
const (
	underlayA, underlayB = "192.0.2.1", "192.0.2.2"
	overlayA, overlayB   = "10.77.0.1", "10.77.0.2"
	wgCredential         = "corium.wg0-key"
)

// nodeAConfig is a single-node controller with its key inline and the
// cluster-port guard on.
func nodeAConfig(keyA, keyB wgtypes.Key) string {
	return fmt.Sprintf(`role: single
node:
  name: node-a
firewall:
  clusterPorts: overlay
wireguard:
  - name: wg0
    address: %s/24
    listenPort: 51820
    nodeAddress: true
    privateKey: %s
    peers:
      - publicKey: %s
        endpoint: %s:51820
        allowedIPs: [%s/32]
`, overlayA, keyA, keyB.PublicKey(), underlayB, overlayB)
}

// bootToken is node B's join token: of k0s's shape, which the agent checks;
// the k0s stand-in joins nothing with it.
var bootToken = fixture.JoinToken("fake00.bootoverlaytest0")

// nodeBConfig is a worker whose WireGuard key comes from a systemd
// credential, as a hypervisor passes it.
func nodeBConfig(keyA wgtypes.Key) string {
	return fmt.Sprintf(`role: worker
node:
  name: node-b
join:
  token: %s
wireguard:
  - name: wg0
    address: %s/24
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom:
      credential: %s
    peers:
      - publicKey: %s
        endpoint: %s:51820
        allowedIPs: [%s/32]
`, bootToken, overlayB, wgCredential, keyA.PublicKey(), underlayA, overlayA)
}

// TestBootOverlayCluster boots two nodes that provision themselves, then
// reboots one (a provisioned node) and breaks the other's overlay:
//   - first boot: the agent runs once, wg-quick@wg0 comes up, the nodes ping
//     each other across the overlay, and the k0s stand-in starts only after
//     the agent finished and wg-quick@wg0 is active, with --node-ip= the
//     overlay address;
//   - second boot (with the kernel's ruleset emptied as a reboot does): the
//     agent is skipped by its condition, wg-quick@wg0 and corium-firewall
//     come up again, the guard is back, and k0s starts after both;
//   - an overlay that fails on boot keeps k0s from starting.
func TestBootOverlayCluster(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip", "nft")
	keyA, keyB := fixture.GenKey(t), fixture.GenKey(t)
	nsA, nsB := netns.New(t, "cb-a"), netns.New(t, "cb-b")
	netns.Veth(t, nsA, "eth0", underlayA+"/24", nsB, "eth0", underlayB+"/24")

	a, b := NewNode(t, "node-a", nsA), NewNode(t, "node-b", nsB)
	a.WriteFile("/etc/corium/config.yaml", []byte(nodeAConfig(keyA, keyB)), 0o600)
	b.WriteFile("/etc/corium/config.yaml", []byte(nodeBConfig(keyA)), 0o600)
	b.Credentials[wgCredential] = keyB.String()
	secrets := []string{keyA.String(), keyB.String(), bootToken}

	a.Boot()
	b.Boot()
	t.Run("first boot", func(t *testing.T) {
		for _, n := range []*Node{a, b} {
			assertProvisioned(t, n)
		}
		assertK0sAfter(t, a, "k0scontroller.service", "corium-agent.service", "wg-quick@wg0.service", "corium-firewall.service")
		assertK0sAfter(t, b, "k0sworker.service", "corium-agent.service", "wg-quick@wg0.service")
		assertNodeIP(t, a, overlayA)
		assertNodeIP(t, b, overlayB)
		ping(t, a, overlayB)
		ping(t, b, overlayA)
		for _, n := range []*Node{a, b} {
			assertNoSecrets(t, n, secrets)
		}
	})

	t.Run("second boot", func(t *testing.T) {
		a.Shutdown()
		// The test's namespace outlives the node; a real reboot starts with
		// an empty ruleset, so remove the guard the first boot programmed.
		if _, err := nsA.Try("nft", "list", "table", "inet", "corium"); err != nil {
			t.Errorf("no inet corium table after the first boot with the guard on: %v", err)
		}
		nsA.Run(t, "nft", "delete", "table", "inet", "corium")
		a.Boot()
		if out, err := a.Exec("nft", "list", "table", "inet", "corium"); err != nil {
			t.Errorf("the guard was not re-applied on the second boot: %v\n%s", err, out)
		}
		agent := a.Show("corium-agent.service", "ConditionResult", "ExecMainStartTimestampMonotonic")
		if agent["ConditionResult"] != "no" || guest.Monotonic(agent, "ExecMainStartTimestampMonotonic") != 0 {
			t.Errorf("corium-agent.service on a provisioned node = %v, want skipped by its condition", agent)
		}
		if got := messages(a.Journal(a.BootID), "skipped, unmet condition check ConditionPathExists=!/var/lib/corium/provisioned"); len(got) == 0 {
			t.Errorf("journal: no record of corium-agent.service skipped by its condition:\n%s", a.JournalText(a.BootID))
		}
		if n := a.standIn().Installs(); n != 1 {
			t.Errorf("k0s install ran %d times over two boots, want 1", n)
		}
		assertK0sAfter(t, a, "k0scontroller.service", "wg-quick@wg0.service", "corium-firewall.service")
		if fw := a.Show("corium-firewall.service", "Result", "ActiveState"); fw["ActiveState"] != "active" || fw["Result"] != "success" {
			t.Errorf("corium-firewall.service on the second boot = %v, want active", fw)
		}
		ping(t, a, overlayB)
	})

	// k0s Requires= the overlay, so stopping wg-quick@wg0 stops k0s; the
	// interface's drop-in brings it back when the interface starts again.
	// Without the drop-in (the negative control) k0s stays down.
	t.Run("overlay stopped and started", func(t *testing.T) {
		const k0s = "k0scontroller.service"
		cycle := func(wait time.Duration) map[string]string {
			a.MustExec("systemctl", "stop", "wg-quick@wg0.service")
			if st := a.Show(k0s, "ActiveState"); st["ActiveState"] == "active" {
				t.Errorf("%s still active with its overlay stopped", k0s)
			}
			a.MustExec("systemctl", "start", "wg-quick@wg0.service")
			var st map[string]string
			for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
				if st = a.Show(k0s, "ActiveState"); st["ActiveState"] == "active" {
					break
				}
			}
			return st
		}
		if st := cycle(10 * time.Second); st["ActiveState"] != "active" {
			t.Errorf("%s after wg-quick@wg0 stopped and started = %v, want active again", k0s, st)
		}
		ping(t, a, overlayB)
		dropIn := "/etc/systemd/system/wg-quick@wg0.service.d/10-corium-k0s.conf"
		saved := a.ReadFile(dropIn)
		a.MustRemove(dropIn)
		a.MustExec("systemctl", "daemon-reload")
		if st := cycle(3 * time.Second); st["ActiveState"] == "active" {
			t.Errorf("negative control: %s came back without the drop-in; the test proves nothing", k0s)
		}
		a.WriteFile(dropIn, []byte(saved), 0o644)
		a.MustExec("systemctl", "daemon-reload")
		a.MustExec("systemctl", "start", k0s)
	})

	t.Run("overlay broken", func(t *testing.T) {
		b.Shutdown()
		// A key wg cannot parse: wg-quick@wg0 fails on this boot.
		conf := b.ReadFile("/etc/wireguard/wg0.conf")
		if !strings.Contains(conf, "PrivateKey") {
			t.Fatalf("node-b has no rendered /etc/wireguard/wg0.conf:\n%s", conf)
		}
		var broken []string
		for _, line := range strings.Split(conf, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "PrivateKey") {
				line = "PrivateKey = not-a-key"
			}
			broken = append(broken, line)
		}
		b.WriteFile("/etc/wireguard/wg0.conf", []byte(strings.Join(broken, "\n")), 0o600)
		if state := b.Boot(); state != "degraded" {
			t.Errorf("system state with a broken overlay = %s, want degraded", state)
		}
		journal := b.Journal(b.BootID)
		if e := jobDone(journal, "wg-quick@wg0.service", "start"); e == nil || e.JobResult != "failed" {
			t.Errorf("wg-quick@wg0.service start = %+v, want failed", e)
		}
		if e := jobDone(journal, "k0sworker.service", "start"); e == nil || e.JobResult != "dependency" {
			t.Errorf("k0sworker.service start = %+v, want result dependency (Requires= on wg-quick@wg0)", e)
		}
		if b.standIn().StartedIn(b.BootID) {
			t.Errorf("the k0s stand-in started although wg-quick@wg0 failed")
		}
		if st := b.Show("k0sworker.service", "ActiveState"); st["ActiveState"] == "active" {
			t.Errorf("k0sworker.service is %v with the overlay down", st)
		}
	})
	a.Shutdown()
	b.Shutdown()
}

// assertProvisioned checks a first boot that went through: the agent ran
// once and succeeded, the overlay is up, the marker is written.
func assertProvisioned(t *testing.T, n *Node) {
	t.Helper()
	journal := n.Journal(n.BootID)
	if got := len(messages(journal, "Starting corium-agent.service")); got != 1 {
		t.Errorf("%s: corium-agent.service started %d times, want 1", n.Name, got)
	}
	agent := n.Show("corium-agent.service", "Result", "ActiveState")
	if agent["Result"] != "success" || agent["ActiveState"] != "active" {
		t.Errorf("%s: corium-agent.service = %v, want active (exited) after success:\n%s", n.Name, agent, n.JournalText(n.BootID))
	}
	if wg := n.Show("wg-quick@wg0.service", "ActiveState"); wg["ActiveState"] != "active" {
		t.Errorf("%s: wg-quick@wg0.service = %v, want active", n.Name, wg)
	}
	if !n.Exists("/var/lib/corium/provisioned") {
		t.Errorf("%s: no marker /var/lib/corium/provisioned after a successful first boot", n.Name)
	}
	if n.standIn().Installs() != 1 {
		t.Errorf("%s: k0s install ran %d times, want 1", n.Name, n.standIn().Installs())
	}
}

// assertK0sAfter checks, from systemd's own records, that the k0s stand-in
// unit is running in this boot and started after each of the given units
// became active.
func assertK0sAfter(t *testing.T, n *Node, k0sUnit string, after ...string) {
	t.Helper()
	k0s := n.Show(k0sUnit, "ActiveState", "ExecMainStartTimestampMonotonic")
	started := guest.Monotonic(k0s, "ExecMainStartTimestampMonotonic")
	if k0s["ActiveState"] != "active" || started == 0 || !n.standIn().StartedIn(n.BootID) {
		t.Errorf("%s: %s = %v, want the stand-in running in this boot:\n%s", n.Name, k0sUnit, k0s, n.JournalText(n.BootID))
		return
	}
	for _, u := range after {
		p := n.Show(u, "ActiveState", "ActiveEnterTimestampMonotonic")
		active := guest.Monotonic(p, "ActiveEnterTimestampMonotonic")
		if p["ActiveState"] != "active" || active == 0 || active > started {
			t.Errorf("%s: %s started at %d, before %s was active (%v)", n.Name, k0sUnit, started, u, p)
		}
	}
}

// assertNodeIP checks the stand-in's recorded install argv carries the
// overlay address as the kubelet's node IP.
func assertNodeIP(t *testing.T, n *Node, addr string) {
	t.Helper()
	argv := n.standIn().InstallArgs()
	if !slices.Contains(argv, "--kubelet-extra-args=--node-ip="+addr) {
		t.Errorf("%s: k0s install argv %q lacks --kubelet-extra-args=--node-ip=%s", n.Name, argv, addr)
	}
}

// ping sends packets across the overlay from inside the node.
func ping(t *testing.T, n *Node, addr string) {
	t.Helper()
	if out, err := n.Exec("ping", "-c", "2", "-W", "2", addr); err != nil {
		t.Errorf("%s: ping %s across the overlay: %v\n%s\n%s", n.Name, addr, err, out, n.MustExec("wg", "show"))
	}
}

// assertNoSecrets searches what the agent leaves for operators to read: the
// journal, the status file, the applied config.
func assertNoSecrets(t *testing.T, n *Node, secrets []string) {
	t.Helper()
	outputs := map[string]string{
		"journal":                          n.JournalAll(),
		"/run/corium/status.json":          n.MustExec("cat", "/run/corium/status.json"),
		"/var/lib/corium/applied.yaml":     n.ReadFile("/var/lib/corium/applied.yaml"),
		"/var/lib/corium/firewall.json":    n.ReadFile("/var/lib/corium/firewall.json"),
		"corium-agent status (if present)": func() string { out, _ := n.Exec("corium-agent", "status"); return out }(),
	}
	for name, text := range outputs {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("%s: %s contains a secret value", n.Name, name)
			}
		}
	}
}
