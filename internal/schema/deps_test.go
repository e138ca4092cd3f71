package schema_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// The schema is what a workstation's validate runs: it links no driver,
// and no TLS either.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/schema", deptest.Drivers...)
}
