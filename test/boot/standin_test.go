package boot

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/guest"
)

// standInBinary is the k0s STAND-IN (test/boot/k0sstandin), built once per
// test binary, static like the agent. It is not k0s: it refuses what k0s
// v1.36.3+k0s.0 refuses when installing and starting (internal/k0s/rules),
// and otherwise records its calls and writes a unit that records its start.
func standInBinary(t testing.TB) string {
	t.Helper()
	return agentbin.Program(t, "github.com/corium/corium-agent/test/boot/k0sstandin")
}

// installK0sStandIn puts the stand-in where the agent finds k0s.
func installK0sStandIn(n *Node) {
	n.CopyFile(standInBinary(n.t), "/usr/local/bin/k0s", 0o755)
}

// standIn is the stand-in's record on the node's disk.
func (n *Node) standIn() guest.StandInRecord { return guest.StandInRecord{Read: n.ReadFile} }
