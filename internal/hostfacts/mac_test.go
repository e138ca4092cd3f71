package hostfacts

import (
	"strings"
	"testing"
)

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
