package agentbin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// Agent is the agent's package, what Path builds.
const Agent = "github.com/corium/corium-agent/cmd/corium-agent"

var (
	mu     sync.Mutex
	dir    string
	dirErr error
	builds = map[string]*build{}
)

// build is one package's binary, built at most once per test binary.
type build struct {
	once sync.Once
	path string
	err  error
}

// Path returns the agent, building it on the first call of the test binary.
func Path(t testing.TB) string {
	t.Helper()
	return Program(t, Agent)
}

// Build is Path for a TestMain, which has no test to fail.
func Build() (string, error) { return BuildProgram(Agent) }

// Program returns the binary of pkg (an import path of this module, such as
// the k0s stand-in a guest carries), building it on the first call for pkg
// of the test binary. The binary is named after the package's last element.
func Program(t testing.TB, pkg string) string {
	t.Helper()
	p, err := BuildProgram(pkg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// BuildProgram is Program for a TestMain, which has no test to fail.
func BuildProgram(pkg string) (string, error) {
	mu.Lock()
	if dir == "" && dirErr == nil {
		dir, dirErr = os.MkdirTemp("", "corium-agent-bin-")
	}
	b, ok := builds[pkg]
	if !ok {
		b = &build{}
		builds[pkg] = b
	}
	d, err := dir, dirErr
	mu.Unlock()
	if err != nil {
		return "", err
	}
	b.once.Do(func() { b.path, b.err = goBuild(filepath.Join(d, path.Base(pkg)), pkg) })
	return b.path, b.err
}

// goBuild builds pkg into out static and without build paths, as the image
// carries the agent, so a guest runs it whatever its C library.
func goBuild(out, pkg string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, pkg)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building %s: %w\n%s", pkg, err, b)
	}
	return out, nil
}

// Run runs the tests and removes the binaries after; a TestMain ends with
// os.Exit(agentbin.Run(m)).
func Run(m *testing.M) int {
	code := m.Run()
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		_ = os.RemoveAll(dir)
	}
	return code
}
