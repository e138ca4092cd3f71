package render

import (
	"errors"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/wgquick"
)

// A last run's file that wg and wg-quick read differently is not built on:
// an again run stops, naming the file and the line, quoting none of it. A file
// the readers agree on however it is spelled is compared as they read it.
func TestAgainRefusesDisagreeingFile(t *testing.T) {
	applied, next := twoInterfaceConfig(schema.RoleWorker), twoInterfaceConfig(schema.RoleWorker)
	prev := previousOf(t, applied)
	canonical := string(prev.Confs["wg0"])

	prev.Confs["wg0"] = []byte(strings.Replace(canonical, "[Interface]", "[ Interface ]", 1))
	_, err := RenderOverlay(Inputs{Config: next, Secrets: twoInterfaceSecrets(), Previous: prev})
	var d *wgquick.DisagreeError
	if !errors.As(err, &d) || !strings.Contains(err.Error(), "wireguard[0]: the last run's /etc/wireguard/wg0.conf: line 2") {
		t.Fatalf("got %v, want the disagreement refused", err)
	}
	if strings.Contains(err.Error(), testPrivA) {
		t.Errorf("the refusal quotes the key: %v", err)
	}

	// The control: a spelling both readers take is read, and the peer
	// added is added alone, as from the canonical file.
	odd := strings.NewReplacer("[Interface]", "[interface]", "[Peer]", " [ peer ] ", "PrivateKey = ", "private key=", "MTU = ", "mtu=").Replace(canonical)
	prev.Confs["wg0"] = []byte(odd)
	next.WireGuard[0].Peers = append(next.WireGuard[0].Peers, schema.Peer{PublicKey: testPubB, AllowedIPs: []string{"10.10.0.3/32"}})
	steps, err := RenderOverlay(Inputs{Config: next, Secrets: twoInterfaceSecrets(), Previous: prev})
	if err != nil {
		t.Fatal(err)
	}
	if got := actionsOf(steps[0], "wg0"); strings.Join(got, "\n") != strings.Join(peersActions("wg0 add="+testPubB), "\n") {
		t.Errorf("wg0's actions from the oddly spelled file:\n%s", strings.Join(got, "\n"))
	}
}
