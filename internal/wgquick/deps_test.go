package wgquick_test

import (
	"os/exec"
	"strings"
	"testing"
)

// The codec is a leaf, as wgctrl's wgtypes is: the standard library, the
// key type and secret.Value. A reader or a driver imported here would pull
// I/O into every package that reads or writes the format.
func TestDependencies(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports "\n"}}`, "github.com/corium/corium-agent/internal/wgquick").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	allowed := map[string]bool{
		"golang.zx2c4.com/wireguard/wgctrl/wgtypes":      true,
		"github.com/corium/corium-agent/internal/secret": true,
	}
	for _, imp := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(imp, "/")
		if !allowed[imp] && strings.Contains(first, ".") {
			t.Errorf("wgquick imports %s; it links only the standard library, wgtypes and secret", imp)
		}
	}
}
