package bootstrap

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// demoStating is the demo's configuration with wg0 stating publicKey.
func demoStating(t *testing.T, publicKey string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(demoDir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const at = "    privateKeyFrom: {file: /run/corium/secrets/wg0.key}\n"
	if !strings.Contains(string(data), at) {
		t.Fatal("the demo's wg0 no longer reads its key from /run/corium/secrets/wg0.key")
	}
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), at, at+"    publicKey: "+publicKey+"\n", 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// demoWg0Key is the demo's wg0 private key and its public key.
func demoWg0Key(t *testing.T) (string, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(demoDir, "root/run/corium/secrets/wg0.key"))
	if err != nil {
		t.Fatal(err)
	}
	k, err := wgtypes.ParseKey(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	return k.String(), k.PublicKey().String()
}

// A wrong key on the node fails the run at its secrets, before anything is
// written, naming the field and the key's source, and no output shows a
// key: the resolved private key pasted as publicKey is refused the same
// way.
func TestApplyHoldsTheResolvedKeyToThePublicKey(t *testing.T) {
	priv, pub := demoWg0Key(t)
	other := fixture.GenKey(t).PublicKey().String()
	for _, tc := range []struct {
		name, stated, want string
	}{
		{"another node's key", other, "wireguard[0].publicKey: is not the public key of the private key read from wireguard[0].privateKeyFrom (/run/corium/secrets/wg0.key)"},
		{"the private key itself", priv, "wireguard[0].publicKey: is the private key read from wireguard[0].privateKeyFrom (/run/corium/secrets/wg0.key) itself"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := newDemoRoot(t)
			before := snapshot(t, root)
			var log bytes.Buffer
			o := demoOptions(root, &log)
			o.ConfigFile = demoStating(t, tc.stated)
			live := &applytest.RecordingLive{}
			o.Live, o.LiveUnderRoot = live, true
			st, err := Run(context.Background(), o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			if st.Outcome != status.Failed || len(st.Steps) == 0 || st.Steps[len(st.Steps)-1].Name != "secrets" {
				t.Errorf("status %+v, want failed at secrets", st)
			}
			sameTree(t, before, snapshot(t, root))
			if err := store.Write(root, st); err != nil {
				t.Fatal(err)
			}
			statusFile, _ := root.ReadFile(status.Path)
			js, _ := json.Marshal(st)
			out := strings.Join([]string{err.Error(), log.String(), string(statusFile), string(js), live.Text()}, "\n")
			for _, s := range append(demoSecrets(t), priv, pub) {
				if strings.Contains(out, s) {
					t.Errorf("an output shows %q…:\n%s", s[:6], out)
				}
			}
		})
	}
}

// The key the resolved one derives provisions the node, and the plan shows
// the stated key, which apply holds the resolved one to.
func TestStatedPublicKeyProvisionsAndPlans(t *testing.T) {
	_, pub := demoWg0Key(t)
	root := newDemoRoot(t)
	o := demoOptions(root, nil)
	o.ConfigFile = demoStating(t, pub)
	rep, err := Plan(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if args := verifyArgs(t, rep, "wg0"); !strings.Contains(args, "publicKey="+pub+" (stated by wireguard[0].publicKey; the key from wireguard[0].privateKeyFrom must derive it at boot)") {
		t.Errorf("plan's verify args %q", args)
	}
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatalf("apply with the right key stated: %v", err)
	}
	applied, _ := root.ReadFile(status.AppliedPath)
	if !strings.Contains(string(applied), "publicKey: "+pub) {
		t.Errorf("applied.yaml lacks the stated key:\n%s", applied)
	}
}
