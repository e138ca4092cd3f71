package vm

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
)

// repoRoot is the checkout the test runs in; tests run in their package
// directory.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

func TestMain(m *testing.M) { os.Exit(agentbin.Run(m)) }

// binaries are what the test builds once and copies into each VM's disk.
type binaries struct {
	Agent   string // the agent, static as the image carries it
	StandIn string // the k0s STAND-IN, test/boot/k0sstandin
	Guestd  string // the command channel's guest end, test/vm/guestd
}

// built builds the binaries once per test binary (agentbin), into a
// directory TestMain removes.
func built(t testing.TB) binaries {
	t.Helper()
	return binaries{
		Agent:   agentbin.Path(t),
		StandIn: agentbin.Program(t, "github.com/corium/corium-agent/test/boot/k0sstandin"),
		Guestd:  agentbin.Program(t, "github.com/corium/corium-agent/test/vm/guestd"),
	}
}
