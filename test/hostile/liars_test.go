package hostile

import (
	"crypto/rand"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// TestServersAreNotQuoted points the agent's three fetches (a secret from
// a URL, the join token from its server, the document from corium.config=)
// at every lying server (tlsserver.Liars), the bearer token sent to them,
// and searches everything the agent printed, every sd_notify line and
// every file it wrote under the roots (the status record, the run record)
// for the server's canary and for the bearer token, which some liars echo.
func TestServersAreNotQuoted(t *testing.T) {
	bin := agentbin.Path(t)
	liars, caPEM := tlsserver.Liars(t)
	if len(liars) < 12 {
		t.Fatalf("%d liars, want a dozen", len(liars))
	}
	work := t.TempDir()
	ca := filepath.Join(work, "ca.pem")
	write(t, ca, string(caPEM), 0o644)
	factsFile := filepath.Join(work, "facts.json")
	write(t, factsFile, facts, 0o644)
	bearer := "BEARER" + rand.Text()
	for _, l := range liars {
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			a := &agent{bin: bin, env: append(append(fixture.CleanEnv(), "SSL_CERT_FILE="+ca, "SSL_CERT_DIR=/nonexistent"), l.Env...), notes: notifytest.Listen(t)}
			if l.Env == nil {
				a.env = slices.DeleteFunc(a.env, func(kv string) bool { return strings.HasPrefix(strings.ToLower(kv), "https_proxy=") })
			}
			from := "{url: \"" + l.URL + "\", authFile: /run/test-inputs/bearer, waitFor: 2s}"
			token := "role: worker\ncluster: {name: liars}\njoin:\n  tokenFrom: " + from + "\n"
			psk := "role: single\nwireguard:\n  - name: wg1\n    address: 10.20.0.1/24\n    listenPort: 51821\n    privateKeyFrom: " + from +
				"\n    peers: [{publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=, endpoint: \"203.0.113.7:51821\", allowedIPs: [10.20.0.0/24]}]\n"
			docs := []string{token, psk}
			if l.Slow {
				docs = docs[:1] // each fetch of it lasts the header timeout
			}
			dir := t.TempDir()
			var roots []string
			for _, doc := range docs {
				config := filepath.Join(dir, "config.yaml")
				write(t, config, doc, 0o600)
				root := liarRoot(t, bearer)
				roots = append(roots, root)
				if code, out := a.run(t, "apply", "--root", root, "--config", config, "--facts", factsFile); code == 0 {
					t.Errorf("apply took what %s served:\n%s", l.Name, out)
				}
				a.run(t, "status", "--root", root)
				a.run(t, "status", "--root", root, "--format", "json")
			}
			if !l.Slow {
				pxe := liarRoot(t, bearer)
				roots = append(roots, pxe)
				write(t, filepath.Join(pxe, "proc/cmdline"), "BOOT_IMAGE=/vmlinuz corium.config="+l.URL+" corium.config.wait=2s quiet\n", 0o444)
				a.run(t, "apply", "--root", pxe, "--facts", factsFile)
				a.run(t, "resolve", "--root", pxe)
				a.run(t, "resolve", "--root", pxe, "--format", "json")
				a.run(t, "status", "--root", pxe, "--format", "json")
			}

			all := strings.Join(append(a.out, a.notes.Text()), "\n")
			for _, s := range []string{l.Canary, bearer} {
				if strings.Contains(all, s) {
					t.Errorf("the outputs show %s:\n%s", s, all)
				}
			}
			if host := strings.Split(l.URL, "/")[2]; !strings.Contains(all, host) {
				t.Errorf("no output names %s: the test did not reach the server:\n%s", host, all)
			}
			for _, root := range roots {
				_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
					if err != nil || d.IsDir() || strings.Contains(p, inputs) || strings.HasSuffix(p, "/proc/cmdline") {
						return err
					}
					b, _ := os.ReadFile(p)
					for _, s := range []string{l.Canary, bearer} {
						if strings.Contains(string(b), s) {
							t.Errorf("%s holds %s", strings.TrimPrefix(p, root), s)
						}
					}
					return nil
				})
			}
		})
	}
}

// liarRoot is a node root holding the bearer token the fetches send.
func liarRoot(t *testing.T, bearer string) string {
	root := t.TempDir()
	write(t, filepath.Join(root, "etc/machine-id"), "0123456789abcdef0123456789abcdef\n", 0o444)
	write(t, filepath.Join(root, inputs, "bearer"), bearer+"\n", 0o600)
	return root
}
