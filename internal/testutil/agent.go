package testutil

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BuildAgent builds cmd/corium-agent, statically as the image does, into a
// directory the test owns, and returns the binary's path.
func BuildAgent(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "corium-agent")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/corium/corium-agent/cmd/corium-agent")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the agent: %v\n%s", err, out)
	}
	return bin
}

// CleanEnv is the test's environment without what a run under systemd would
// set (NOTIFY_SOCKET, CREDENTIALS_DIRECTORY, JOURNAL_STREAM) or a trust store
// override, so a test adds exactly what it means to.
func CleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "NOTIFY_SOCKET", "CREDENTIALS_DIRECTORY", "SSL_CERT_FILE", "SSL_CERT_DIR", "JOURNAL_STREAM":
			continue
		}
		out = append(out, kv)
	}
	return out
}
