package vm

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDocumentsValidate checks the VM test's documents offline with the
// agent's validate, strictly (warnings count), c1's with the checks for a
// document on the kernel command line, and that no secret is in any of
// them: the keys and the token reach the machines as credentials only.
func TestDocumentsValidate(t *testing.T) {
	c := newCluster(t)
	var secrets Secrets
	secrets.Add(c.secrets()...)
	dir := t.TempDir()
	// n1's URL carries userinfo and a query string, which the machine's
	// own secrets cover; this test's are the cluster's.
	n1FullURL, _ := n1URL("pw", "sig")
	for _, d := range []struct {
		name, text string
		args       []string
	}{
		{"c1.yaml", controllerConfig(c), []string{"--for", "cmdline"}},
		{"w1-user-data", workerUserData(c), nil},
		{"f1.yaml", fileConfig(), nil},
		{"d1.yaml", defaultConfig(), nil},
		{"w1-late-user-data", workerUserDataJoin(c, lateJoin("  ", secretURL(underlayC1, w1TokenPath), w1WaitFor)), nil},
		{"n1.yaml", n1Config(n1FullURL), nil},
	} {
		secrets.Absent(t, d.name, d.text)
		path := filepath.Join(dir, d.name)
		if err := os.WriteFile(path, []byte(d.text), 0o600); err != nil {
			t.Fatal(err)
		}
		args := append([]string{"validate", "--strict"}, d.args...)
		out, err := exec.Command(built(t).Agent, append(args, path)...).CombinedOutput()
		if err != nil {
			t.Errorf("%s: validate %v: %v\n%s", d.name, d.args, err, out)
		}
	}
}
