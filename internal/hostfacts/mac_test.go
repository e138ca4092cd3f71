package hostfacts

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil"
)

// An interface's MAC is read as ip link prints it, which is how k0s
// matches ha.interface given as a MAC (cplb_linux.go:52); a link without
// one has none.
func TestGatherReadsMACs(t *testing.T) {
	testutil.RequireRoot(t, "ip")
	ns := testutil.NewNetns(t, "mac")
	ns.Run(t, "ip", "link", "add", "bond0.100", "address", "52:54:00:AB:CD:EF", "type", "veth", "peer", "name", "p0")
	ns.Run(t, "ip", "link", "set", "bond0.100", "up")
	f, err := Gather(ns.Netlink(t))
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

func TestParseMACs(t *testing.T) {
	f, err := Parse([]byte(`{"interfaces":[{"name":"eth0","mac":"52:54:00:ab:cd:ef","addresses":[]},{"name":"wg0","addresses":[]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if f.Interfaces[0].MAC != "52:54:00:ab:cd:ef" || f.Interfaces[1].MAC != "" || !f.HasMACs() {
		t.Errorf("parsed %+v", f.Interfaces)
	}
	if len(f.InterfacesWithMAC("")) != 0 {
		t.Error("the links without a MAC match an empty one")
	}
	for _, bad := range []string{"52:54:00:AB:CD:EF", "52-54-00-ab-cd-ef", "eth0"} {
		_, err := Parse([]byte(`{"interfaces":[{"name":"eth0","mac":"` + bad + `","addresses":[]}]}`))
		if err == nil || !strings.Contains(err.Error(), "interfaces[0].mac") {
			t.Errorf("mac %q: %v, want refused by its path", bad, err)
		}
	}
	old, err := Parse([]byte(`{"interfaces":[{"name":"eth0","addresses":[]}]}`))
	if err != nil || old.HasMACs() {
		t.Errorf("facts without MACs: %v, HasMACs %v", err, old != nil && old.HasMACs())
	}
}
