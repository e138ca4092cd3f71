package lab

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
)

// repoRoot is the checkout the test runs in; tests run in their package
// directory.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

func TestMain(m *testing.M) {
	os.Exit(agentbin.Run(m))
}
