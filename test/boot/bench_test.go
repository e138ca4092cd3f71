package boot

import (
	"fmt"
	"testing"

	"github.com/corium/corium-agent/internal/testutil"
)

// BenchmarkBootFirstBoot boots a fresh node that provisions itself (a
// single node with an inline key and one peer), from nspawn's start to the
// end of the boot transaction. agent-ms is the agent's own run as systemd
// recorded it (start to exit of corium-agent.service).
func BenchmarkBootFirstBoot(b *testing.B) {
	testutil.RequireRoot(b, "systemd-nspawn", "nsenter", "journalctl", "pgrep", "ip")
	ns := testutil.NewNetns(b, "cb-bench")
	var agentUS uint64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		key, peer := testutil.GenKey(b), testutil.GenKey(b)
		n := NewNode(b, "bench", ns)
		n.WriteFile("/etc/corium/config.yaml", []byte(fmt.Sprintf(`role: single
wireguard:
  - name: wg0
    address: 10.79.0.1/24
    listenPort: 51820
    nodeAddress: true
    privateKey: %s
    peers:
      - publicKey: %s
        endpoint: 192.0.2.9:51820
        allowedIPs: [10.79.0.2/32]
`, key, peer.PublicKey())), 0o600)
		b.StartTimer()
		if state := n.Boot(); state != "running" {
			b.Fatalf("state %s:\n%s", state, n.JournalText(n.BootID))
		}
		b.StopTimer()
		p := n.Show("corium-agent.service", "Result", "ExecMainStartTimestampMonotonic", "ExecMainExitTimestampMonotonic")
		if p["Result"] != "success" {
			b.Fatalf("corium-agent.service: %v", p)
		}
		agentUS += monotonic(p, "ExecMainExitTimestampMonotonic") - monotonic(p, "ExecMainStartTimestampMonotonic")
		n.Shutdown()
		b.StartTimer()
	}
	b.ReportMetric(float64(agentUS)/float64(b.N)/1000, "agent-ms/op")
}
