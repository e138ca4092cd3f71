package boot

import (
	"fmt"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// againConfig is a single node with wg0 (the node address) and, when
// withWg1, a second interface wg1. wg0's listen port, peer endpoint and MTU
// vary.
func againConfig(key, wg1Key, peer wgtypes.Key, port int, endpoint string, mtu int, withWg1 bool) string {
	s := fmt.Sprintf(`role: single
node:
  name: again
wireguard:
  - name: wg0
    address: 10.78.0.1/24
    listenPort: %d
    mtu: %d
    nodeAddress: true
    privateKey: %s
    peers:
      - publicKey: %s
        endpoint: %s
        allowedIPs: [10.78.0.2/32]
`, port, mtu, key, peer.PublicKey(), endpoint)
	if withWg1 {
		s += fmt.Sprintf(`  - name: wg1
    address: 10.79.0.1/24
    listenPort: 51821
    mtu: 1380
    privateKey: %s
    peers:
      - publicKey: %s
        endpoint: 192.0.2.2:51821
        allowedIPs: [10.79.0.2/32]
`, wg1Key, peer.PublicKey())
	}
	return s
}

// TestBootAgain provisions a node with two interfaces, then runs the real
// `corium-agent apply --again` inside it against the node's systemd:
//   - wg0's listen port and peer endpoint change and wg1 is dropped: wg0 is
//     reloaded (same device, new port and endpoint), wg1 is stopped and its files removed, and the
//     k0s stand-in, which Requires= both, keeps running the same invocation;
//   - negative control: wg0's MTU changes, which needs a restart, and the
//     restart takes k0s down and up with it (systemd propagates it through
//     Requires=), so the probe above could have seen one;
//   - without the marker the k0s unit is skipped by its condition.
func TestBootAgain(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip")
	key, wg1Key, peer := fixture.GenKey(t), fixture.GenKey(t), fixture.GenKey(t)
	ns, other := netns.New(t, "cb-d2"), netns.New(t, "cb-d2p")
	netns.Veth(t, ns, "eth0", "192.0.2.1/24", other, "eth0", "192.0.2.2/24")
	n := NewNode(t, "again", ns)
	n.WriteFile("/etc/corium/config.yaml", []byte(againConfig(key, wg1Key, peer, 51820, "192.0.2.2:51820", 1420, true)), 0o600)
	n.Boot()
	t.Cleanup(n.Shutdown)
	assertProvisioned(t, n)
	k0s := "k0scontroller.service"
	assertK0sAfter(t, n, k0s, "corium-agent.service", "wg-quick@wg0.service", "wg-quick@wg1.service")
	invocation := n.Show(k0s, "InvocationID")["InvocationID"]
	wg0Index, _ := link(t, n, "wg0")

	again := func(t *testing.T, config string) {
		t.Helper()
		n.WriteFile("/etc/corium/config.yaml", []byte(config), 0o600)
		if out, err := n.Exec("corium-agent", "apply", "--again"); err != nil {
			t.Fatalf("apply --again: %v\n%s\n%s", err, out, n.JournalText(n.BootID))
		}
	}

	t.Run("port and endpoint changed, wg1 dropped", func(t *testing.T) {
		again(t, againConfig(key, wg1Key, peer, 51830, "192.0.2.9:51820", 1420, false))
		if got := n.MustExec("wg", "show", "wg0", "endpoints"); !strings.Contains(got, "192.0.2.9:51820") {
			t.Errorf("wg0 endpoints after apply --again: %q, want 192.0.2.9:51820", got)
		}
		if got := strings.TrimSpace(n.MustExec("wg", "show", "wg0", "listen-port")); got != "51830" {
			t.Errorf("wg0 listen port after apply --again: %s, want 51830", got)
		}
		if got, _ := link(t, n, "wg0"); got != wg0Index {
			t.Errorf("wg0 is a new device (ifindex %s, was %s): it was restarted, not reloaded", got, wg0Index)
		}
		if got := messages(n.Journal(n.BootID), "Reloaded wg-quick@wg0.service"); len(got) == 0 {
			t.Errorf("journal has no reload of wg-quick@wg0:\n%s", n.JournalText(n.BootID))
		}
		if s := n.Show("wg-quick@wg1.service", "ActiveState", "UnitFileState"); s["ActiveState"] != "inactive" || s["UnitFileState"] == "enabled" {
			t.Errorf("wg-quick@wg1 = %v, want stopped and not enabled", s)
		}
		if _, err := n.Exec("ip", "link", "show", "wg1"); err == nil {
			t.Error("the wg1 link is still there")
		}
		for _, gone := range []string{"/etc/wireguard/wg1.conf", "/etc/systemd/system/multi-user.target.wants/wg-quick@wg1.service"} {
			if n.Exists(gone) {
				t.Errorf("%s is still there", gone)
			}
		}
		if s := n.Show(k0s, "ActiveState", "InvocationID"); s["ActiveState"] != "active" || s["InvocationID"] != invocation {
			t.Errorf("k0s stand-in = %v, want the same invocation %s still running: apply --again restarted or stopped k0s", s, invocation)
		}
	})

	t.Run("negative control: an MTU change restarts wg0 and k0s with it", func(t *testing.T) {
		again(t, againConfig(key, wg1Key, peer, 51830, "192.0.2.9:51820", 1380, false))
		if _, got := link(t, n, "wg0"); got != "1380" {
			t.Errorf("wg0 mtu %s, want 1380", got)
		}
		if s := n.Show(k0s, "ActiveState", "InvocationID"); s["InvocationID"] == invocation {
			t.Errorf("k0s stand-in kept invocation %s through a restart of wg0: the probe cannot see a restart", invocation)
		}
	})

	// A k0s unit left enabled by a run that died before the marker must not
	// start after the failed agent: the agent's drop-in makes the marker a
	// condition of k0s starting at all.
	t.Run("k0s does not start without the marker", func(t *testing.T) {
		n.MustExec("systemctl", "stop", k0s)
		n.MustExec("mv", "/var/lib/corium/provisioned", "/var/lib/corium/provisioned.aside")
		n.MustExec("systemctl", "start", k0s)
		if s := n.Show(k0s, "ActiveState", "ConditionResult"); s["ActiveState"] == "active" || s["ConditionResult"] != "no" {
			t.Errorf("k0s stand-in without the marker = %v, want skipped by its condition", s)
		}
		n.MustExec("mv", "/var/lib/corium/provisioned.aside", "/var/lib/corium/provisioned")
		n.MustExec("systemctl", "start", k0s)
		if s := n.Show(k0s, "ActiveState"); s["ActiveState"] != "active" {
			t.Errorf("k0s stand-in with the marker back = %v, want active (the condition was what stopped it)", s)
		}
	})
}

// link is the interface index and MTU of a link in the node, from
// `ip -o link show` ("7: wg0: <...> mtu 1420 ...").
func link(t *testing.T, n *Node, name string) (index, mtu string) {
	t.Helper()
	f := strings.Fields(n.MustExec("ip", "-o", "link", "show", name))
	for i := 0; i+1 < len(f); i++ {
		if f[i] == "mtu" {
			mtu = f[i+1]
		}
	}
	if len(f) == 0 || mtu == "" {
		t.Fatalf("%s: cannot read link %s: %q", n.Name, name, f)
	}
	return strings.TrimSuffix(f[0], ":"), mtu
}
