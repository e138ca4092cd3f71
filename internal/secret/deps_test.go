package secret_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// A secret value is a type: it links no driver.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/secret", deptest.Drivers...)
}
