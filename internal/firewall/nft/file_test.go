package nft

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// The guard needs no secret and must not carry one: every output of Render,
// File and State is searched for the config's secret values.
func TestGuardCarriesNoSecret(t *testing.T) {
	const key = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
	const psk = "ISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0A="
	cfg := overlayConfig()
	k, p := secret.NewValue(key), secret.NewValue(psk)
	cfg.WireGuard[0].PrivateKey = &k
	cfg.WireGuard[0].Peers = []schema.Peer{{PublicKey: "TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=", PresharedKey: &p}}
	g, err := renderGuard(cfg)
	if err != nil {
		t.Fatal(err)
	}
	conn := newFakeConn()
	r, err := State(conn, g)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := buildRuleset(g)
	if err != nil {
		t.Fatal(err)
	}
	out := string(g.File()) + rs.describe() + r.Reason
	for _, s := range []string{key, psk} {
		if strings.Contains(out, s) {
			t.Fatalf("a secret value appears in the guard's outputs")
		}
	}
}
