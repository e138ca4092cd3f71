package k0s_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// The k0s tree is what validate runs on a workstation, as the schema is: it
// links no driver. It does not link the contract either, which imports it
// to validate with the effective value.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/k0s",
		append(deptest.Drivers, "github.com/corium/corium-agent/internal/schema")...)
}
