package hostile

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestClusterCheckLeaksNoSecret runs validate --cluster over the baseline
// and a second node made of the baseline's secrets in the wrong fields,
// each delivered as a file, through write_files (gz+b64) and inline on a
// kernel command line, and searches everything printed.
func TestClusterCheckLeaksNoSecret(t *testing.T) {
	bin := agentbin.Path(t)
	secrets := newSecrets(t)
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return expand(string(b), secrets, "https://secrets.example.net")
	}
	base := read(filepath.Join(corpus, baseline))
	peer := read(filepath.Join(corpus, "cluster", "peer.yaml"))
	dir := t.TempDir()
	files := map[string]string{
		"base.yaml":      base,
		"peer.yaml":      peer,
		"peer-wf.yaml":   writeFilesGzB64(t, peer),
		"peer-pxe.txt":   "BOOT_IMAGE=/vmlinuz corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(peer)) + " quiet\n",
		"base-wf.yaml":   writeFilesGzB64(t, base),
		"base-pxe.txt":   "corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(base)) + "\n",
		"empty-key.yaml": strings.Replace(peer, "privateKey: ", "privateKey: x", 1),
	}
	for name, content := range files {
		write(t, filepath.Join(dir, name), content, 0o600)
	}
	a := &agent{bin: bin, env: fixture.CleanEnv(), notes: notifytest.Listen(t)}
	for _, set := range [][]string{
		{"base.yaml", "peer.yaml"},
		{"base-wf.yaml", "peer-pxe.txt"},
		{"base-pxe.txt", "peer-wf.yaml", "empty-key.yaml"},
	} {
		args := []string{"validate", "--cluster"}
		for _, f := range set {
			args = append(args, filepath.Join(dir, f))
		}
		code, out := a.run(t, args...)
		if code != 1 || !strings.Contains(out, "is the secret") {
			t.Errorf("%v: exit %d, want 1 refusing a secret as a key:\n%s", set, code, out)
		}
		a.run(t, append(args, "--format", "json")...)
		a.run(t, append(args, "--strict")...)
	}
	all := strings.Join(a.out, "\n")
	if found := leaks(all, secrets); len(found) > 0 {
		t.Errorf("validate --cluster shows %v:\n%s", found, all)
	}
}

func writeFilesGzB64(t *testing.T, doc string) string {
	return "#cloud-config\nwrite_files:\n  - path: /etc/corium/config.yaml\n    permissions: \"0600\"\n    encoding: gz+b64\n    content: " +
		fixture.GzipBase64(t, []byte(doc)) + "\n"
}
