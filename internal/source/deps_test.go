package source_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// The pure reader is what validate and validate --cluster unpack a file
// with, on a workstation: it links no driver, and no TLS either (fetching
// is the chain's, in source/chain).
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/source", deptest.Drivers...)
}
