package finding_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// Every check reports in this type, the workstation's validate among them:
// it links no driver, nor the checks that import it.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/finding",
		append(deptest.Drivers,
			"github.com/corium/corium-agent/internal/schema",
			"github.com/corium/corium-agent/internal/k0s",
			"github.com/corium/corium-agent/internal/cluster",
			"github.com/corium/corium-agent/internal/status")...)
}
