package boot

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// standInDir is where the k0s stand-in records what it was asked to do.
const standInDir = "/var/lib/k0s-standin"

var (
	standInOnce sync.Once
	standInPath string
	standInErr  error
)

// standInBinary builds the k0s STAND-IN (test/boot/k0sstandin), once per
// test binary, static like the agent, next to the agent in the build
// directory TestMain removes. It is not k0s: it refuses what k0s
// v1.36.3+k0s.0 refuses when installing and starting (internal/k0srules),
// and otherwise records its calls and writes a unit that records its start.
func standInBinary(t testing.TB) string {
	t.Helper()
	agent := agentBinary(t)
	standInOnce.Do(func() {
		standInPath = filepath.Join(filepath.Dir(agent), "k0s-standin")
		cmd := exec.Command("go", "build", "-trimpath", "-o", standInPath, "./test/boot/k0sstandin")
		cmd.Dir = repoRoot
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			standInErr = &cmdError{args: cmd.Args, err: err, out: out}
		}
	})
	if standInErr != nil {
		t.Fatalf("building the k0s stand-in: %v", standInErr)
	}
	return standInPath
}

// installK0sStandIn puts the stand-in where the agent finds k0s.
func installK0sStandIn(n *Node) {
	n.CopyFile(standInBinary(n.t), "/usr/local/bin/k0s", 0o755)
}

// standInInstallArgs is the argv of the last `k0s install`, or nil.
func (n *Node) standInInstallArgs() []string {
	s := strings.TrimRight(n.ReadFile(standInDir+"/install.argv"), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// standInInstalls counts `k0s install` calls over the node's life.
func (n *Node) standInInstalls() int {
	return strings.Count(n.ReadFile(standInDir+"/install.count"), "install\n")
}

// standInStartedIn says whether the stand-in's k0s unit ran in the given boot.
func (n *Node) standInStartedIn(bootID string) bool {
	for _, line := range strings.Split(n.ReadFile(standInDir+"/started"), "\n") {
		if strings.ReplaceAll(strings.TrimPrefix(line, "boot "), "-", "") == bootID {
			return true
		}
	}
	return false
}
