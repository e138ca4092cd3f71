package bootstrap

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/ondisk"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// An again run that swaps wg0's second peer for a new one, whose preshared
// key comes from a file, changes wg0 peer by peer: the plan, rendered with
// placeholder secrets, chooses the same wireguard-peers action as the
// apply, which resolves them; nothing is reloaded or restarted, and no
// secret shows in status or the recorded actions.
func TestAgainWholePeersChangeOnlyThosePeers(t *testing.T) {
	root := provisionedDemo(t)
	const gone = "8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc="
	added := fixture.GenKey(t).PublicKey().String()
	config := editedDemoConfig(t,
		"      - publicKey: "+gone+"\n        endpoint: 192.0.2.13:51820\n        allowedIPs: [10.10.0.3/32]\n",
		"      - publicKey: "+added+"\n        allowedIPs: [10.10.0.4/32]\n        presharedKeyFrom: {file: /run/corium/secrets/wg0-c2.psk}\n")
	want := "wireguard-peers wg-quick@wg0.service wg0 add=" + added + " remove=" + gone

	o := demoOptions(root, nil)
	o.ConfigFile, o.Again = config, true
	rep, err := Plan(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	var planned []string
	for _, s := range rep.Steps {
		for _, a := range s.Actions {
			if a.Unit == plan.WgQuickUnit("wg0") {
				planned = append(planned, strings.Join(append([]string{a.Kind, a.Unit}, a.Args...), " "))
			}
		}
	}
	if !strings.Contains(strings.Join(planned, "\n"), want) {
		t.Errorf("the plan's wg0 actions:\n%s\nwant %s", strings.Join(planned, "\n"), want)
	}

	st, live, err := again(t, root, config)
	if err != nil || st.Outcome != status.Converged {
		t.Fatalf("again: %v (%s)", err, st.Outcome)
	}
	text := live.Text()
	if !strings.Contains(text, "start wg-quick@wg0.service\n"+want+"\n") {
		t.Errorf("wg0 not changed peer by peer:\n%s", text)
	}
	for _, never := range []string{"reload wg-quick@", "restart ", "stop "} {
		if strings.Contains(text, never) {
			t.Errorf("the again run performed %q:\n%s", never, text)
		}
	}
	js, _ := json.Marshal(st)
	pj, _ := json.Marshal(rep)
	for _, v := range demoSecrets(t) {
		if strings.Contains(string(js)+string(pj)+text, v) {
			t.Errorf("the plan, status or the actions hold a secret value (%s...)", v[:4])
		}
	}
}

// The plan takes a SecretSource to hold what it held: the old file's
// source-given keys are spelled as the placeholders the new file has,
// an inline key is left as it is, and the file on disk is not changed.
func TestPlanPreviousSpellsSourceKeysAsPlaceholders(t *testing.T) {
	root := provisionedDemo(t)
	applied, err := readApplied(root)
	if err != nil {
		t.Fatal(err)
	}
	onDisk, _ := root.ReadFile("/etc/wireguard/wg0.conf")
	prev := planPrevious(ondisk.ReadPrevious(root, applied), applied)
	got := string(prev.Confs["wg0"])
	for _, v := range demoSecrets(t) {
		if strings.Contains(got, v) {
			t.Errorf("a source-given key is still in the plan's old file (%s...)", v[:4])
		}
	}
	if strings.Count(got, dummyKey) != 2 || !strings.Contains(got, "PrivateKey = "+dummyKey+"\n") || !strings.Contains(got, "PresharedKey = "+dummyKey+"\n") {
		t.Errorf("the plan's old wg0 file:\n%s\nwant its private and preshared keys as placeholders", got)
	}
	if again, _ := root.ReadFile("/etc/wireguard/wg0.conf"); string(again) != string(onDisk) {
		t.Error("planPrevious changed the file on disk")
	}
}

// A file spelled with blanks wg ignores ("[ Peer ]", "Preshared Key")
// still has its source-given keys found: the lines are read as
// wgquick.Parse reads them, so the peers counted are its peers.
func TestPlaceholderKeysReadLinesAsWgDoes(t *testing.T) {
	self, a, b := fixture.GenKey(t), fixture.GenKey(t).PublicKey(), fixture.GenKey(t).PublicKey()
	psk := fixture.GenKey(t)
	conf := "[Interface]\nPrivateKey = " + self.String() + "\n" +
		"[ Peer ] # a\nPublicKey = " + a.String() + "\n" +
		"[\tPeer]\nPublicKey = " + b.String() + "\nPreshared Key = " + psk.String() + "\n"
	wg := schema.WireGuard{
		Name:           "wg0",
		PrivateKeyFrom: &secret.Source{},
		Peers: []schema.Peer{
			{PublicKey: a.String()},
			{PublicKey: b.String(), PresharedKeyFrom: &secret.Source{}},
		},
	}
	got := string(placeholderKeys([]byte(conf), inlineSecrets(&schema.Config{WireGuard: []schema.WireGuard{wg}})))
	if strings.Contains(got, self.String()) || strings.Contains(got, psk.String()) || strings.Count(got, dummyKey) != 2 {
		t.Errorf("placeholderKeys left a source-given key: private key kept %v, preshared key kept %v, %d placeholders",
			strings.Contains(got, self.String()), strings.Contains(got, psk.String()), strings.Count(got, dummyKey))
	}
}

// An inline secret is in the document and compared as it is: the plan's
// old file keeps the value the document states, and only the others
// become placeholders.
func TestPlaceholderKeysKeepInlineSecrets(t *testing.T) {
	self, a, psk := fixture.GenKey(t), fixture.GenKey(t).PublicKey(), fixture.GenKey(t)
	conf := "[Interface]\nPrivateKey = " + self.String() + "\n[Peer]\nPublicKey = " + a.String() + "\nPresharedKey = " + psk.String() + "\n"
	priv := secret.NewValue(self.String())
	cfg := &schema.Config{WireGuard: []schema.WireGuard{{
		Name:       "wg0",
		PrivateKey: &priv,
		Peers:      []schema.Peer{{PublicKey: a.String(), PresharedKeyFrom: &secret.Source{}}},
	}}}
	got := string(placeholderKeys([]byte(conf), inlineSecrets(cfg)))
	if !strings.Contains(got, "PrivateKey = "+self.String()+"\n") || strings.Contains(got, psk.String()) || strings.Count(got, dummyKey) != 1 {
		t.Errorf("the plan's old file:\n%s\nwant the inline private key kept and the preshared key a placeholder", got)
	}
}
