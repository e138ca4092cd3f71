package render_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// Render is pure: a plan from data, through no driver.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/bootstrap/render", deptest.Drivers...)
}
