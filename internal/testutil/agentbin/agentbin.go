package agentbin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

var (
	once sync.Once
	dir  string
	path string
	err  error
)

// Path returns the agent, building it on the first call of the test binary.
func Path(t testing.TB) string {
	t.Helper()
	p, err := Build()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Build is Path for a TestMain, which has no test to fail.
func Build() (string, error) {
	once.Do(func() {
		if dir, err = os.MkdirTemp("", "corium-agent-bin-"); err != nil {
			return
		}
		path = filepath.Join(dir, "corium-agent")
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", path, "github.com/corium/corium-agent/cmd/corium-agent")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, e := cmd.CombinedOutput(); e != nil {
			err = fmt.Errorf("building the agent: %w\n%s", e, out)
		}
	})
	return path, err
}

// Run runs the tests and removes the binary after; a TestMain ends with
// os.Exit(agentbin.Run(m)).
func Run(m *testing.M) int {
	code := m.Run()
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
	return code
}
