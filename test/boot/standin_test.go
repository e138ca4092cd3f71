package boot

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

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
		standInErr = guest.GoBuild(repoRoot, standInPath, "./test/boot/k0sstandin")
	})
	if standInErr != nil {
		t.Fatal(standInErr)
	}
	return standInPath
}

// installK0sStandIn puts the stand-in where the agent finds k0s.
func installK0sStandIn(n *Node) {
	n.CopyFile(standInBinary(n.t), "/usr/local/bin/k0s", 0o755)
}

// standIn is the stand-in's record on the node's disk.
func (n *Node) standIn() guest.StandInRecord { return guest.StandInRecord{Read: n.ReadFile} }
