package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var dualStackNodes = []string{"examples/dual-stack-overlay/c1.yaml", "examples/dual-stack-overlay/w1.yaml"}

// TestDualStackExampleAgrees: the dual-stack example's two nodes are one
// cluster over an overlay of both families. Control: c1's entry for w1
// without w1's IPv6 address is caught, naming the address.
func TestDualStackExampleAgrees(t *testing.T) {
	out, code := runAgent(t, append([]string{"validate", "--strict", "--cluster"}, dualStackNodes...)...)
	if code != 0 || !strings.Contains(out, "cluster of 2 files: valid") {
		t.Errorf("validate --strict --cluster %s: exit %d\n%s", strings.Join(dualStackNodes, " "), code, out)
	}
	c1 := string(readRepo(t, dualStackNodes[0]))
	cut := strings.Replace(c1, `allowedIPs: [10.40.0.11/32, "fd40::11/128"]`, "allowedIPs: [10.40.0.11/32]", 1)
	if cut == c1 {
		t.Fatal("c1.yaml no longer lists w1's addresses as this control expects")
	}
	file := filepath.Join(t.TempDir(), "c1.yaml")
	if err := os.WriteFile(file, []byte(cut), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code = runAgent(t, "validate", "--cluster", file, dualStackNodes[1])
	if code != 1 || !strings.Contains(out, "do not hold fd40::11 of w1") {
		t.Errorf("c1 without w1's IPv6 address: exit %d, want 1 naming fd40::11\n%s", code, out)
	}
}
