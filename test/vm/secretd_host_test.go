package vm

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestSecretServer runs the VM test's secret server on the host's loopback
// and the agent against it as a guest does, without a VM: the agent
// trusts the server by its CA in a directory of the system trust store
// (SSL_CERT_DIR standing in for the guest's /etc/ssl/certs) and sends the
// bearer token from authFile under its root; the server refuses a wrong
// bearer and a request without one, and neither value is in the agent's
// output. What the VM test then proves is the boot around it.
func TestSecretServer(t *testing.T) {
	srv := newSecretServer(t)
	token := fixture.JoinToken("vmtest." + fixture.RandHex(16))
	dir := t.TempDir()
	files := map[string]string{"cert.pem": string(srv.certPEM), "key.pem": string(srv.keyPEM), "value": token, "bearer": srv.bearer}
	for name, v := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	certs := filepath.Join(dir, "certs")
	if err := os.Mkdir(certs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(certs, filepath.Base(secretdCA)), srv.caPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	bin := agentbin.Program(t, "github.com/corium/corium-agent/test/vm/secretd")
	serve := exec.Command(bin, "serve", "-listen", addr, "-cert", filepath.Join(dir, "cert.pem"), "-key", filepath.Join(dir, "key.pem"),
		"-path", w1TokenPath, "-value", filepath.Join(dir, "value"), "-bearer", filepath.Join(dir, "bearer"))
	var log strings.Builder
	serve.Stdout, serve.Stderr = &log, &log
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = serve.Process.Kill(); _ = serve.Wait() })
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("secretd does not listen on %s:\n%s", addr, log.String())
		}
	}
	url := "https://" + addr + w1TokenPath

	apply := func(bearer string) string {
		t.Helper()
		root := t.TempDir()
		for path, text := range map[string]string{
			"/etc/corium/config.yaml": "role: worker\ncluster:\n  name: vmtest\nnode:\n  name: w1\n" + lateJoin("", url, 10*time.Second),
			bearerAuthFile:            bearer,
		} {
			p := filepath.Join(root, path)
			if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cmd := exec.Command(built(t).Agent, "apply", "--root", root)
		cmd.Env = append(fixture.CleanEnv(), "SSL_CERT_FILE="+filepath.Join(dir, "none.pem"), "SSL_CERT_DIR="+certs)
		out, _ := cmd.CombinedOutput()
		for _, v := range []string{token, srv.bearer, bearer} {
			if strings.Contains(string(out), v) {
				t.Errorf("the agent's output holds a secret value")
			}
		}
		return string(out)
	}
	if out := apply(srv.bearer); !strings.Contains(out, "join.tokenFrom: resolved from "+url) {
		t.Errorf("with the right bearer the agent did not resolve the token from %s:\n%s", url, out)
	}
	if out := apply("wrong-" + fixture.RandHex(8)); !strings.Contains(out, "401") || !strings.Contains(out, "authFile "+bearerAuthFile) {
		t.Errorf("with a wrong bearer the agent did not fail with the server's 401, naming authFile:\n%s", out)
	}
	probe := exec.Command(bin, "get", "-ca", filepath.Join(certs, filepath.Base(secretdCA)), url)
	if out, err := probe.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "401" {
		t.Errorf("secretd get without a bearer: %v %q, want 401", err, out)
	}
	served := strings.Count(log.String(), "bearer right, answered 200")
	refused := strings.Count(log.String(), "bearer missing or wrong, answered 401")
	if served != 1 || refused != 2 || strings.Contains(log.String(), token) || strings.Contains(log.String(), srv.bearer) {
		t.Errorf("secretd's log: %d served, %d refused (want 1 and 2), and no value in it:\n%s", served, refused, log.String())
	}
}
