package schema

import (
	"context"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
)

// overlaySecretsDoc takes its secrets from servers on the node's own
// overlay (10.10.0.0/24 and fd10::/64), an underlay address and a name.
const overlaySecretsDoc = `role: worker
join:
  tokenFrom: {url: "https://ops:pw4711@10.10.0.1:8443/tok?sig=sig4711", waitFor: 10m}
wireguard:
  - name: wg0
    address: [10.10.0.11/24, fd10::11/64]
    nodeAddress: true
    privateKeyFrom: {url: "https://[fd10::1]/wg0"}
    peers:
      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=
        endpoint: 192.0.2.12:51820
        allowedIPs: [10.10.0.1/32]
        presharedKeyFrom: {url: "https://192.0.2.5/psk"}
  - name: wg1
    address: 10.20.0.11/32
    privateKeyFrom: {url: "https://keys.example.net/wg1"}
    peers:
      - publicKey: 8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc=
        endpoint: 192.0.2.13:51820
        allowedIPs: [10.20.0.1/32]
        presharedKeyFrom: {url: "https://10.20.0.11/psk"}
`

// A secret fetched from the node's own overlay is fetched before the overlay
// is up: refused, naming the url's field and the address's network, and
// quoting neither the URL's userinfo nor its query. An underlay address and
// a host name are left alone.
func TestSecretURLOnTheOverlayIsRefused(t *testing.T) {
	_, fs, err := Check(context.Background(), []byte(overlaySecretsDoc))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"join.tokenFrom.url":                         "is at 10.10.0.1, on this node's overlay (the network of wireguard[0].address[0], 10.10.0.0/24): the agent fetches secrets before it brings the overlay up, so the fetch reaches nothing and is retried for waitFor",
		"wireguard[0].privateKeyFrom.url":            "is at fd10::1, on this node's overlay (the network of wireguard[0].address[1], fd10::/64)",
		"wireguard[1].peers[0].presharedKeyFrom.url": "is at 10.20.0.11, on this node's overlay (the network of wireguard[1].address[0], 10.20.0.11/32): the agent fetches secrets before it brings the overlay up, so the fetch reaches nothing and fails at its one attempt",
	}
	got := map[string]bool{}
	for _, f := range fs {
		for _, leak := range []string{"pw4711", "sig4711", "ops:"} {
			if strings.Contains(f.Message, leak) {
				t.Errorf("%s quotes the URL: %s", f.Path, f.Message)
			}
		}
		says, ok := want[f.Path]
		switch {
		case !ok:
			t.Errorf("unexpected finding %s: %s", f.Path, f.Message)
		case f.Severity != finding.Error || !strings.Contains(f.Message, says):
			t.Errorf("%s: want an error saying %q, got %s %q", f.Path, says, f.Severity, f.Message)
		}
		got[f.Path] = true
	}
	for path := range want {
		if !got[path] {
			t.Errorf("no finding at %s; found %v", path, fs)
		}
	}
}
