package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestAgainPeerChangeLeaksNoSecret provisions the baseline and then swaps
// wg0's peer whose preshared key is a file's for two new peers, one with an
// inline preshared key and one whose key an https URL serves: a change of
// whole peers, which an again run carries out as a wireguard-peers action (the
// added peers' sections handed to wg, the keys in them). Every output of
// plan, apply and status --again is searched, and the files, as for the
// corpus.
func TestAgainPeerChangeLeaksNoSecret(t *testing.T) {
	r := newRunSetup(t)
	bin, secrets, srv, work, factsFile, env, base := r.bin, r.secrets, r.srv, r.work, r.factsFile, r.env, r.base
	const gone = "      - publicKey: 8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc=\n        endpoint: 192.0.2.13:51820\n        allowedIPs: [10.10.0.3/32]\n        presharedKeyFrom: {file: /run/test-inputs/psk}\n"
	if !strings.Contains(base, gone) {
		t.Fatal("the baseline changed shape: no file-keyed second peer on wg0")
	}
	inline, fromURL := fixture.GenKey(t).PublicKey().String(), fixture.GenKey(t).PublicKey().String()
	next := strings.Replace(base, gone,
		"      - publicKey: "+inline+"\n        allowedIPs: [10.10.0.4/32]\n        presharedKey: "+secrets["PSK"].value+"\n"+
			"      - publicKey: "+fromURL+"\n        allowedIPs: [10.10.0.5/32]\n        presharedKeyFrom:\n          url: \""+srv.URL+"/psk?sig="+secrets["SIG"].value+"\"\n          authFile: /run/test-inputs/bearer\n", 1)
	baseFile, nextFile := filepath.Join(work, "baseline.yaml"), filepath.Join(work, "next.yaml")
	write(t, baseFile, base, 0o600)
	write(t, nextFile, next, 0o600)

	a := &agent{bin: bin, env: env, notes: notifytest.Listen(t)}
	root := newRoot(t, secrets)
	if code, out := a.run(t, "apply", "--root", root, "--config", baseFile, "--facts", factsFile); code != 0 {
		t.Fatalf("provisioning with the baseline:\n%s", out)
	}
	_, planned := a.run(t, "plan", "--again", "--root", root, "--config", nextFile, "--facts", factsFile)
	a.run(t, "plan", "--again", "--root", root, "--config", nextFile, "--facts", factsFile, "--format", "json")
	code, applied := a.run(t, "apply", "--again", "--root", root, "--config", nextFile, "--facts", factsFile)
	if code != 0 {
		t.Fatalf("apply --again: exit %d\n%s", code, applied)
	}
	a.run(t, "status", "--root", root)
	a.run(t, "status", "--root", root, "--format", "json")
	record, err := os.ReadFile(filepath.Join(root, "run/corium/status.json"))
	if err != nil {
		t.Fatal(err)
	}
	a.record([]string{"(" + root + "/run/corium/status.json)"}, string(record))
	for name, out := range map[string]string{"plan": planned, "apply": applied, "the run's status file": string(record)} {
		if !strings.Contains(out, "wireguard-peers") || !strings.Contains(out, "add="+inline) {
			t.Errorf("%s shows no wireguard-peers action adding the peers, so the search below is not of it:\n%s", name, out)
		}
	}
	all := strings.Join(append(a.out, a.notes.Text()), "\n")
	if found := leaks(all, secrets); len(found) > 0 {
		t.Errorf("the outputs show %v:\n%s", found, all)
	}
	checkFiles(t, root, secrets, map[string]bool{})
}
