package resolve_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// The resolver fetches url: secrets over https, and that is the one driver it links.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/secret/resolve", deptest.Without(deptest.Drivers, "net/http", "crypto/tls")...)
}
