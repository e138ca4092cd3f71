package bootstrap

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/status"
)

// demoWg1Public is the public half of the key the demo's wg1 reads.
func demoWg1Public(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(demoDir, "root/run/corium/secrets/wg1.key"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := wgtypes.ParseKey(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return k.PublicKey().String()
}

// A peer of wg0 whose key is wg1's own, known only once wg1's key file is
// read, fails the run at its secrets: both fields are named, nothing is
// written, and no output shows a secret (the public key may be shown).
func TestApplyRefusesAPeerThatIsAnotherInterface(t *testing.T) {
	pub := demoWg1Public(t)
	data, err := os.ReadFile(filepath.Join(demoDir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	peer := regexp.MustCompile(`(?m)^      - publicKey: \S+\n        endpoint: 192\.0\.2\.12:51820$`)
	if peer.Find(data) == nil {
		t.Fatal("the demo's wg0 no longer has its peer at 192.0.2.12:51820")
	}
	doc := peer.ReplaceAllLiteral(data, []byte("      - publicKey: "+pub+"\n        endpoint: 192.0.2.12:51820"))
	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfgPath, doc, 0o600); err != nil {
		t.Fatal(err)
	}

	root := newDemoRoot(t)
	before := snapshot(t, root)
	var log bytes.Buffer
	o := demoOptions(root, &log)
	o.ConfigFile = cfgPath
	live := &applytest.RecordingLive{}
	o.Live, o.LiveUnderRoot = live, true
	st, err := Run(context.Background(), o)
	const want = "wireguard[0].peers[0].publicKey: is the public key of wireguard[1] on this node; a peer is another node's interface"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	if st.Outcome != status.Failed || len(st.Steps) == 0 || st.Steps[len(st.Steps)-1].Name != "secrets" {
		t.Errorf("status %+v, want failed at secrets", st)
	}
	sameTree(t, before, snapshot(t, root))
	if live.Text() != "" {
		t.Errorf("live actions ran:\n%s", live.Text())
	}
	js, _ := json.Marshal(st)
	out := strings.Join([]string{err.Error(), log.String(), string(js)}, "\n")
	for _, s := range demoSecrets(t) {
		if strings.Contains(out, s) {
			t.Errorf("an output shows %q…:\n%s", s[:6], out)
		}
	}
}
