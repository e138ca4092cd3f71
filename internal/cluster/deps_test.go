package cluster_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/testutil/deptest"
)

// validate --cluster runs on a workstation: it links no netlink, nftables,
// D-Bus, os/exec, net/http or TLS. It reads each file through the pure
// reader (internal/source), never the fetching chain.
func TestDependencies(t *testing.T) {
	deptest.Forbid(t, "github.com/corium/corium-agent/internal/cluster", deptest.Drivers...)
}
