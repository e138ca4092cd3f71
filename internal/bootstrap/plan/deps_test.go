package plan_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// The plan is the leaf vocabulary of a run, shared by render, apply, the
// run's record and status: it links no driver, and not the schema or its
// validator either, so nothing that only speaks of a run pulls them in.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/bootstrap/plan", append(deptest.Drivers,
		"github.com/corium/corium-agent/internal/schema",
		"github.com/go-playground/validator/v10")...)
}
