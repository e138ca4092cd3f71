package resolve

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// cliInputs is where the test puts the secret source files under the root;
// they hold the secrets by design and are not searched.
const cliInputs = "/run/test-inputs"

// TestCLINoSecretInAnyOutput runs the agent binary the way systemd does at
// first boot (NOTIFY_SOCKET, CREDENTIALS_DIRECTORY, the system trust store
// from SSL_CERT_FILE) with all three source kinds, and searches everything it
// produced for the secret values: stdout, stderr, sd_notify datagrams, every
// file under the root, and what plan, resolve and status print afterwards.
// The only files allowed to hold a secret are mode 0600 in a 0700
// directory, and the successful run must have put each secret in one (the
// values did flow, so their absence elsewhere means something).
func TestCLINoSecretInAnyOutput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the agent")
	}
	bin := agentbin.Path(t)
	secrets := cliSecrets{
		privateKey: fixture.GenKey(t).String(), psk: fixture.GenKey(t).String(),
		token: fixture.ControllerJoinToken("fake00." + strings.ToLower(rand.Text()[:16])), auth: "BEARER-SECRET-" + rand.Text(), sig: "SIG-SECRET-" + rand.Text(),
	}
	srv, hits := tokenServer(t, secrets)
	caFile := tlsserver.CAFile(t, srv)

	for _, sc := range []struct {
		name     string
		path     string // the token's URL path
		pskWait  string
		writePSK bool
		sigterm  bool
		wantOK   bool
	}{
		{name: "success after 503", path: "/token", pskWait: "10s", writePSK: true, wantOK: true},
		{name: "401 echoing the bearer token", path: "/denied", pskWait: "10s", writePSK: true},
		{name: "file never appears", path: "/token", pskWait: "300ms"},
		{name: "SIGTERM while waiting", path: "/busy", pskWait: "10s", writePSK: true, sigterm: true},
	} {
		t.Run(sc.name, func(t *testing.T) {
			hits.reset()
			root := rootfs.New(t.TempDir())
			dir := t.TempDir()
			creds := fixture.CredentialsDir(t, map[string]string{"corium.wg0.key": secrets.privateKey + "\n"})
			write := func(p, content string) {
				if _, err := root.WriteFile(p, []byte(content), 0o600, 0o700); err != nil {
					t.Fatal(err)
				}
			}
			write(cliInputs+"/auth", secrets.auth)
			if sc.writePSK {
				write(cliInputs+"/wg0.psk", secrets.psk)
			}
			config := filepath.Join(dir, "config.yaml")
			facts := filepath.Join(dir, "facts.json")
			tokenURL := srv.URL + sc.path + "?sig=" + secrets.sig
			writeFile(t, config, cliConfig(tokenURL, sc.pskWait))
			writeFile(t, facts, `{"interfaces": [{"name": "eth0", "addresses": ["192.0.2.21/24"]}, {"name": "wg0", "addresses": ["10.20.0.2/24"]}],
 "defaultRoute": {"interface": "eth0", "source": "192.0.2.21"}}`)

			sock := listenNotify(t)
			env := append(fixture.CleanEnv(), "NOTIFY_SOCKET="+os.Getenv("NOTIFY_SOCKET"), "CREDENTIALS_DIRECTORY="+creds,
				"SSL_CERT_FILE="+caFile, "SSL_CERT_DIR=/nonexistent")
			var out []string
			run := func(wait bool, args ...string) (*exec.Cmd, *bytes.Buffer) {
				cmd := exec.Command(bin, args...)
				cmd.Env = env
				var buf bytes.Buffer
				cmd.Stdout, cmd.Stderr = &buf, &buf
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if wait {
					_ = cmd.Wait()
					out = append(out, buf.String())
				}
				return cmd, &buf
			}

			applyArgs := []string{"apply", "--root", root.Dir(), "--config", config, "--facts", facts}
			if sc.sigterm {
				cmd, buf := run(false, applyArgs...)
				waitFor(t, func() bool { return strings.Contains(sock.Text(), "join.tokenFrom: waiting for") })
				start := time.Now()
				_ = cmd.Process.Signal(syscall.SIGTERM)
				done := make(chan error, 1)
				go func() { done <- cmd.Wait() }()
				select {
				case <-done:
				case <-time.After(10 * time.Second):
					_ = cmd.Process.Kill()
					<-done
					t.Fatal("apply still waiting 10s after SIGTERM (its wait was 1h)")
				}
				out = append(out, buf.String())
				if cmd.ProcessState.ExitCode() == 0 {
					t.Errorf("apply exited 0 after SIGTERM:\n%s", buf)
				}
				t.Logf("apply stopped %s after SIGTERM", time.Since(start).Round(time.Millisecond))
			} else {
				cmd, buf := run(true, applyArgs...)
				if ok := cmd.ProcessState.ExitCode() == 0; ok != sc.wantOK {
					t.Fatalf("apply exit %d:\n%s", cmd.ProcessState.ExitCode(), buf)
				}
			}
			run(true, "plan", "--root", root.Dir(), "--config", config, "--facts", facts)
			run(true, "resolve", "--root", root.Dir(), "--config", config)
			run(true, "status", "--root", root.Dir())
			run(true, "status", "--root", root.Dir(), "--format", "json")

			time.Sleep(100 * time.Millisecond) // the last datagrams
			all := strings.Join(append(out, sock.Text()), "\n")
			holders := map[string]bool{}
			err := filepath.WalkDir(root.Dir(), func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || strings.HasPrefix(p, root.Display(cliInputs)) {
					return err
				}
				b, err := os.ReadFile(p)
				if err != nil {
					return nil // a dangling .wants link
				}
				for _, s := range secrets.all() {
					if !bytes.Contains(b, []byte(s)) {
						continue
					}
					holders[s] = true
					info, _ := os.Lstat(p)
					dirInfo, _ := os.Stat(filepath.Dir(p))
					if info.Mode().Perm() != 0o600 || dirInfo.Mode().Perm() != 0o700 {
						t.Errorf("%s holds a secret with mode %v in a directory of mode %v", strings.TrimPrefix(p, root.Dir()), info.Mode().Perm(), dirInfo.Mode().Perm())
					}
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range secrets.all() {
				if strings.Contains(all, s) {
					t.Errorf("a secret leaked into the output (%d chars of it shown): %.6s...", len(s), s)
				}
			}
			if sc.wantOK {
				for _, s := range []string{secrets.privateKey, secrets.psk, secrets.token} {
					if !holders[s] {
						t.Errorf("the run succeeded but no file holds the secret %.6s...: the test did not exercise it", s)
					}
				}
				if !strings.Contains(all, "join.tokenFrom: waiting for "+srv.URL+"/token (attempt 1") {
					t.Errorf("no progress line for the token's 503")
				}
			}
			if t.Failed() {
				t.Logf("outputs:\n%s", all)
			}
		})
	}
}

type cliSecrets struct{ privateKey, psk, token, auth, sig string }

func (s cliSecrets) all() []string { return []string{s.privateKey, s.psk, s.token, s.auth, s.sig} }

func cliConfig(tokenURL, pskWait string) string {
	return fmt.Sprintf(`role: controller
cluster:
  endpoint: 10.20.0.1
join:
  tokenFrom:
    url: %s
    authFile: %s/auth
    waitFor: 1h
wireguard:
  - name: wg0
    address: [10.20.0.2/24]
    listenPort: 51820
    nodeAddress: true
    privateKeyFrom:
      credential: corium.wg0.key
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.11:51820
        allowedIPs: [10.20.0.1/32]
        presharedKeyFrom:
          file: %s/wg0.psk
          waitFor: %s
`, tokenURL, cliInputs, cliInputs, pskWait)
}

// hitCounter counts requests per path.
type hitCounter struct {
	mu sync.Mutex
	n  map[string]int
}

func (h *hitCounter) add(p string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n[p]++
	return h.n[p]
}

func (h *hitCounter) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.n = map[string]int{}
}

// tokenServer serves the join token at /token after one 503, refuses
// /denied with 401, answers /busy with 503 forever; its error pages echo the
// Authorization header and the query.
func tokenServer(t *testing.T, s cliSecrets) (*httptest.Server, *hitCounter) {
	hits := &hitCounter{n: map[string]int{}}
	srv := tlsserver.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.add(r.URL.Path)
		echo := "you sent " + r.Header.Get("Authorization") + " with " + r.URL.RawQuery
		switch {
		case r.Header.Get("Authorization") != "Bearer "+s.auth:
			http.Error(w, echo, http.StatusForbidden)
		case r.URL.Path == "/token" && n > 1:
			_, _ = w.Write([]byte(s.token))
		case r.URL.Path == "/denied":
			http.Error(w, echo, http.StatusUnauthorized)
		default:
			http.Error(w, echo, http.StatusServiceUnavailable)
		}
	}))
	return srv, hits
}

func writeFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
