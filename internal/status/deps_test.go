package status_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// The node's records are read and written under a root: no driver.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/status", deptest.Drivers...)
}
