package boot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/guest"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestBootCloudInit boots a node with the real cloud-init (25, with
// cloud-init-network.service) and a NoCloud seed whose user-data carries the
// corium: block, with the image's cloud.cfg.d: the agent takes its config
// from cloud-init's cloud-config.txt, runs after cloud-init's network stage
// and before cloud-final without an ordering cycle (a unit ordered after
// cloud-final instead loses its job to one); cloud-init honours the
// image's cloud.cfg.d (no default user, preserve_hostname), and the node
// keeps the name the agent gave it across a reboot, although the metadata
// names it otherwise.
func TestBootCloudInit(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip")
	key, peer := fixture.GenKey(t), fixture.GenKey(t)
	n := newNodeOn(t, "cinit", netns.New(t, "cb-ci"), cloudInitLower(t))
	n.WriteFile("/var/lib/cloud/seed/nocloud/meta-data", []byte("instance-id: corium-boot-test\nlocal-hostname: fedora\n"), 0o644)
	n.WriteFile("/var/lib/cloud/seed/nocloud/user-data", []byte(fmt.Sprintf(`#cloud-config
corium:
  role: single
  node:
    name: node-ci
  wireguard:
    - name: wg0
      address: 10.80.0.1/24
      listenPort: 51820
      nodeAddress: true
      privateKey: %s
      peers:
        - publicKey: %s
          endpoint: 192.0.2.9:51820
          allowedIPs: [10.80.0.2/32]
`, key, peer.PublicKey())), 0o600)

	// As the Containerfile turns cloud-init on.
	n.MkdirAll("/usr/lib/systemd/system/default.target.wants", 0o755)
	if err := symlink("../cloud-init.target", n.Path("/usr/lib/systemd/system/default.target.wants/cloud-init.target")); err != nil {
		t.Fatal(err)
	}
	if c := offlineCycles(t, n); c != "" {
		t.Errorf("systemd-analyze verify default.target finds an ordering cycle:\n%s", c)
	}

	n.Boot()
	ci := n.Show("cloud-init-network.service", "Result", "ActiveEnterTimestampMonotonic")
	if ci["Result"] != "success" || guest.Monotonic(ci, "ActiveEnterTimestampMonotonic") == 0 {
		t.Fatalf("cloud-init-network.service did not run (%v); cloud-init is not in force in this boot:\n%s", ci, n.JournalText(n.BootID))
	}
	assertProvisioned(t, n)
	agent := n.Show("corium-agent.service", "ExecMainStartTimestampMonotonic", "ActiveEnterTimestampMonotonic")
	if s := guest.Monotonic(agent, "ExecMainStartTimestampMonotonic"); s < guest.Monotonic(ci, "ActiveEnterTimestampMonotonic") {
		t.Errorf("corium-agent.service started at %d, before cloud-init's network stage finished (%v)", s, ci)
	}
	final := n.Show("cloud-final.service", "ExecMainStartTimestampMonotonic")
	if s := guest.Monotonic(final, "ExecMainStartTimestampMonotonic"); s == 0 || s < guest.Monotonic(agent, "ActiveEnterTimestampMonotonic") {
		t.Errorf("cloud-final.service started at %d, want after corium-agent.service finished (%v)", s, agent)
	}
	var st status.Status
	raw := n.MustExec("cat", status.Path)
	if err := json.Unmarshal([]byte(raw), &st); err != nil || st.Provenance == nil || st.Provenance.Source != "cloud-init" {
		t.Errorf("status provenance: %s, want the config from cloud-init", raw)
	}
	assertK0sAfter(t, n, "k0scontroller.service", "corium-agent.service", "wg-quick@wg0.service")
	if h := strings.TrimSpace(n.MustExec("hostname")); h != "node-ci" {
		t.Errorf("hostname after the first boot = %q, want node-ci", h)
	}
	assertNoSecrets(t, n, []string{key.String()})
	// The image's cloud.cfg.d is in force: cloud-init leaves the name alone
	// and creates no default login user (Debian's would be "debian").
	log := n.ReadFile("/var/log/cloud-init.log")
	if !strings.Contains(log, "Configuration option 'preserve_hostname' is set") {
		t.Errorf("cloud-init did not honour preserve_hostname from the image's cloud.cfg.d")
	}
	if out, err := n.Exec("getent", "passwd", "debian"); err == nil {
		t.Errorf("cloud-init created the distribution's default user: %s", out)
	}
	if strings.Contains(log, "WARNING") {
		for _, line := range strings.Split(log, "\n") {
			if strings.Contains(line, "WARNING") {
				t.Logf("cloud-init: %s", line)
			}
		}
	}

	n.Shutdown()
	n.Boot()
	if h := strings.TrimSpace(n.MustExec("hostname")); h != "node-ci" {
		t.Errorf("hostname after a reboot = %q, want node-ci (cloud-init must preserve it)", h)
	}
	if p := n.Show("corium-agent.service", "ConditionResult"); p["ConditionResult"] != "no" {
		t.Errorf("corium-agent.service on the second boot = %v, want skipped by its condition", p)
	}
	n.Shutdown()

	// Negative control: a unit wanted by multi-user.target and ordered
	// after cloud-final is an ordering cycle (cloud-final orders itself
	// after multi-user.target) — the reason corium-agent.service is not.
	n.WriteFile("/etc/systemd/system/probe-after-final.service",
		[]byte("[Unit]\nAfter=cloud-final.service\n[Service]\nType=oneshot\nExecStart=/bin/true\n"), 0o644)
	if err := symlink("../probe-after-final.service", n.Path("/etc/systemd/system/multi-user.target.wants/probe-after-final.service")); err != nil {
		t.Fatal(err)
	}
	if offlineCycles(t, n) == "" {
		t.Errorf("negative control: verify reports no ordering cycle for a unit after cloud-final, so the check above proves nothing")
	}
	// In a real boot systemd breaks the cycle by deleting a job of it,
	// silently as far as the journal goes: usually the probe's, sometimes
	// cloud-final's (which one is systemd's choice), so what is asserted
	// is that one of the two never ran.
	n.Boot()
	probe := n.Show("probe-after-final.service", "ExecMainStartTimestampMonotonic", "ActiveState")
	cloudFinal := n.Show("cloud-final.service", "ExecMainStartTimestampMonotonic", "ActiveState")
	if guest.Monotonic(probe, "ExecMainStartTimestampMonotonic") != 0 && guest.Monotonic(cloudFinal, "ExecMainStartTimestampMonotonic") != 0 {
		t.Errorf("negative control: the unit ordered after cloud-final ran (%v), and so did cloud-final (%v); expected a job of the cycle dropped", probe, cloudFinal)
	}
	n.Shutdown()
}

// offlineCycles is what the rootfs's systemd-analyze says about ordering
// cycles in the transaction that starts default.target.
func offlineCycles(t *testing.T, n *Node) string {
	t.Helper()
	out, _, _ := n.RunOffline("sh", "-c", "systemd-analyze verify --man=no default.target 2>&1")
	return cycleLines(out)
}

func cycleLines(s string) string {
	var out []string
	for _, line := range strings.Split(s, "\n") {
		if strings.Contains(line, "ordering cycle") {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
