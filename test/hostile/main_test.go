package hostile

import (
	"os"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
)

// The agent binary is built once for the whole test binary and removed after.
func TestMain(m *testing.M) { os.Exit(agentbin.Run(m)) }
