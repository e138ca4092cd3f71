package gather_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// An interface's MAC is read as ip link prints it, which is how k0s
// matches ha.interface given as a MAC (cplb_linux.go:52); a link without
// one has none.
func TestGatherReadsMACs(t *testing.T) {
	host.RequireRoot(t, "ip")
	ns := netns.New(t, "mac")
	ns.Run(t, "ip", "link", "add", "bond0.100", "address", "52:54:00:AB:CD:EF", "type", "veth", "peer", "name", "p0")
	ns.Run(t, "ip", "link", "set", "bond0.100", "up")
	f, err := gather.Gather(ns.Netlink(t))
	if err != nil {
		t.Fatal(err)
	}
	if i := f.Interface("bond0.100"); i == nil || i.MAC != "52:54:00:ab:cd:ef" {
		t.Errorf("bond0.100: %+v, want mac 52:54:00:ab:cd:ef", i)
	}
	if got := f.InterfacesWithMAC("52:54:00:ab:cd:ef"); len(got) != 1 || got[0].Name != "bond0.100" {
		t.Errorf("InterfacesWithMAC = %+v", got)
	}
	if !f.HasMACs() {
		t.Error("HasMACs is false with a MAC gathered")
	}
}
