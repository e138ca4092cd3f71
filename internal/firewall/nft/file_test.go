package nft

import (
	"errors"
	"path"
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

func TestLoad(t *testing.T) {
	root := rootfs.New(t.TempDir())
	_, err := firewall.Load(root)
	if !errors.Is(err, firewall.ErrNotRendered) || !strings.Contains(err.Error(), root.Display(firewall.FilePath)) {
		t.Fatalf("Load without a file = %v; want firewall.ErrNotRendered naming the path", err)
	}
	g := mustRender(t)
	if _, err := root.WriteFile(firewall.FilePath, g.File(), firewall.FileMode, firewall.DirMode); err != nil {
		t.Fatal(err)
	}
	back, err := firewall.Load(root)
	if err != nil || !reflect.DeepEqual(back, g) {
		t.Fatalf("Load = %+v, %v; want %+v", back, err, g)
	}
	info, err := root.Stat(path.Dir(firewall.FilePath))
	if err != nil || info.Mode().Perm() != 0o700 {
		t.Fatalf("directory mode = %v, %v; want 0700", info.Mode().Perm(), err)
	}
	if _, err := root.WriteFile(firewall.FilePath, []byte(`{"version":1,"on":tru`), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := firewall.Load(root); err == nil || !strings.Contains(err.Error(), "reading "+root.Display(firewall.FilePath)) {
		t.Fatalf("Load of a torn file = %v", err)
	}
}

// The guard needs no secret and must not carry one: every output of Render,
// File and State is searched for the config's secret values.
func TestGuardCarriesNoSecret(t *testing.T) {
	const key = "AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA="
	const psk = "ISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0A="
	cfg := overlayConfig()
	k, p := secret.NewValue(key), secret.NewValue(psk)
	cfg.WireGuard[0].PrivateKey = &k
	cfg.WireGuard[0].Peers = []schema.Peer{{PublicKey: "TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=", PresharedKey: &p}}
	g, err := firewall.Render(cfg)
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
