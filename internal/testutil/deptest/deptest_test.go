package deptest

import (
	"slices"
	"testing"
)

func TestViolationsNamesTheImporter(t *testing.T) {
	deps := []Package{
		{ImportPath: "os/exec", Standard: true},
		{ImportPath: "github.com/google/nftables/expr"},
		{ImportPath: "example.com/driver", Imports: []string{"os/exec", "github.com/google/nftables/expr"}},
		{ImportPath: "example.com/pure", Imports: []string{"example.com/driver"}},
	}
	got := Violations(deps, Drivers)
	if len(got) != 2 || got[0].Path != "os/exec" || got[1].Path != "github.com/google/nftables/expr" {
		t.Fatalf("violations: %+v", got)
	}
	if !slices.Equal(got[0].ImportedBy, []string{"example.com/driver"}) {
		t.Errorf("os/exec imported by %v, want example.com/driver", got[0].ImportedBy)
	}
	if v := Violations(deps, Without(Drivers, "os/exec", "github.com/google/nftables")); len(v) != 0 {
		t.Errorf("allowed drivers reported: %+v", v)
	}
}

// This package runs the go tool, so it links os/exec itself: the check on a
// real listing must find it.
func TestForbidSeesARealImport(t *testing.T) {
	deps, err := list(".")
	if err != nil {
		t.Fatal(err)
	}
	if v := Violations(deps, []string{"os/exec"}); len(v) != 1 {
		t.Fatalf("os/exec not found in this package's own dependencies: %+v", v)
	}
	if v := Violations(deps, []string{"github.com/google/nftables"}); len(v) != 0 {
		t.Fatalf("nftables reported: %+v", v)
	}
}
