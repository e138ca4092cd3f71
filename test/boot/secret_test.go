package boot

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

const keyFile = "/etc/corium/wg0.key"

// TestBootSecretMissing boots a node whose private key file never appears
// within its waitFor: the agent fails naming the field, k0s is never
// installed or started, the status file says why, and no marker is written.
// With the key in place, a reboot provisions the node.
func TestBootSecretMissing(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip")
	key, peer := fixture.GenKey(t), fixture.GenKey(t)
	n := NewNode(t, "node-c", netns.New(t, "cb-c"))
	n.WriteFile("/etc/corium/config.yaml", []byte(fmt.Sprintf(`role: single
node:
  name: node-c
wireguard:
  - name: wg0
    address: 10.78.0.1/24
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom:
      file: %s
      waitFor: 3s
    peers:
      - publicKey: %s
        endpoint: 192.0.2.9:51820
        allowedIPs: [10.78.0.2/32]
`, keyFile, peer.PublicKey())), 0o600)

	t.Run("secret never appears", func(t *testing.T) {
		if state := n.Boot(); state != "degraded" {
			t.Errorf("system state = %s, want degraded (the agent failed)", state)
		}
		journal := n.Journal(n.BootID)
		if e := jobDone(journal, "corium-agent.service", "start"); e == nil || e.JobResult != "failed" {
			t.Errorf("corium-agent.service start = %+v, want failed", e)
		}
		var named bool
		for _, e := range journal {
			if e.Source == "corium-agent.service" && strings.Contains(e.Message, "wireguard[0].privateKeyFrom") {
				named = true
			}
		}
		if !named {
			t.Errorf("the agent's journal never names wireguard[0].privateKeyFrom:\n%s", n.JournalText(n.BootID))
		}
		var st status.Status
		raw := n.MustExec("cat", status.Path)
		if err := json.Unmarshal([]byte(raw), &st); err != nil {
			t.Fatalf("%s: %v\n%s", status.Path, err, raw)
		}
		if st.Outcome != status.Failed || !strings.Contains(st.Error, "wireguard[0].privateKeyFrom") {
			t.Errorf("status: outcome %q, error %q; want failed, naming wireguard[0].privateKeyFrom", st.Outcome, st.Error)
		}
		if n.Exists("/var/lib/corium/provisioned") {
			t.Error("the marker was written by a failed first boot")
		}
		if got := n.standIn().Installs(); got != 0 {
			t.Errorf("k0s install ran %d times on a failed first boot", got)
		}
		if n.standIn().StartedIn(n.BootID) {
			t.Error("the k0s stand-in started on a failed first boot")
		}
	})

	t.Run("secret in place, reboot", func(t *testing.T) {
		n.Shutdown()
		n.WriteFile(keyFile, []byte(key.String()+"\n"), 0o600)
		if state := n.Boot(); state != "running" {
			t.Errorf("system state = %s, want running:\n%s", state, n.JournalText(n.BootID))
		}
		assertProvisioned(t, n)
		assertK0sAfter(t, n, "k0scontroller.service", "corium-agent.service", "wg-quick@wg0.service")
		assertNodeIP(t, n, "10.78.0.1")
		assertNoSecrets(t, n, []string{key.String()})
	})
	n.Shutdown()
}
