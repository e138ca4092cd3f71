package firewall

import (
	"bytes"
	"testing"

	"github.com/coreos/go-systemd/v22/unit"
)

func TestK0sDropIn(t *testing.T) {
	if got := K0sDropInPath("k0scontroller.service"); got != "/etc/systemd/system/k0scontroller.service.d/10-corium-firewall.conf" {
		t.Errorf("K0sDropInPath = %q", got)
	}
	opts, err := unit.DeserializeOptions(bytes.NewReader(K0sDropIn()))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"After=" + UnitName: false, "Requires=" + UnitName: false, "AssertPathExists=" + FilePath: false}
	for _, o := range opts {
		if o.Section != "Unit" {
			t.Errorf("option in section %q: %v", o.Section, o)
		}
		k := o.Name + "=" + o.Value
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected option %s", k)
		}
		want[k] = true
	}
	for k, seen := range want {
		if !seen {
			t.Errorf("drop-in lacks %s", k)
		}
	}
	if !bytes.HasPrefix(K0sDropIn(), []byte("# managed by corium-agent")) {
		t.Errorf("drop-in lacks the managed header:\n%s", K0sDropIn())
	}
}

// An older agent's drop-in (After= and Requires= only) lets k0s start when
// the guard's file is gone; status tells the two apart.
func TestDropInAssertsGuard(t *testing.T) {
	old := "# managed by corium-agent\n[Unit]\nAfter=corium-firewall.service\nRequires=corium-firewall.service\n"
	if DropInAssertsGuard([]byte(old)) {
		t.Error("an older agent's drop-in reads as asserting the guard")
	}
	if !DropInAssertsGuard(K0sDropIn()) {
		t.Error("the rendered drop-in does not read as asserting the guard")
	}
	if DropInAssertsGuard([]byte("[Unit]\nAssertPathExists=/elsewhere\n")) {
		t.Error("an assertion on another path reads as asserting the guard")
	}
}
