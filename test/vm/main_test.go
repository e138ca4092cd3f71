package vm

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// repoRoot is the checkout the test runs in; tests run in their package
// directory.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

var (
	buildOnce sync.Once
	buildDir  string
	buildErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		_ = os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

// binaries are what the test builds once and copies into each VM's disk.
type binaries struct {
	Agent   string // the agent, static as the image carries it
	StandIn string // the k0s STAND-IN, test/boot/k0sstandin
	Guestd  string // the command channel's guest end, test/vm/guestd
}

// built builds the binaries once per test binary, into a directory TestMain
// removes.
func built(t testing.TB) binaries {
	t.Helper()
	buildOnce.Do(func() {
		buildDir, buildErr = os.MkdirTemp("", "corium-vm-build-")
		if buildErr != nil {
			return
		}
		for out, pkg := range map[string]string{
			"corium-agent": "./cmd/corium-agent",
			"k0s-standin":  "./test/boot/k0sstandin",
			"guestd":       "./test/vm/guestd",
		} {
			if buildErr = guest.GoBuild(repoRoot, filepath.Join(buildDir, out), pkg); buildErr != nil {
				return
			}
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binaries{
		Agent:   filepath.Join(buildDir, "corium-agent"),
		StandIn: filepath.Join(buildDir, "k0s-standin"),
		Guestd:  filepath.Join(buildDir, "guestd"),
	}
}
