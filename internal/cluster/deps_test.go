package cluster_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// validate --cluster runs on a workstation: it links no netlink, nftables,
// D-Bus or os/exec. It still links net/http, through package source, whose
// delivery unpacking and fetching chain are one package; that is the one
// driver allowed here until they are split.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/cluster", deptest.Without(deptest.Drivers, "net/http")...)
}
