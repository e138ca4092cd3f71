package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// overlayNodes are the nodes of one overlay, spread over several examples:
// the three controllers of two sites and the worker that joins them by PXE.
var overlayNodes = []string{
	"examples/ha-overlay-two-sites/c1.yaml",
	"examples/ha-overlay-two-sites/c2.yaml",
	"examples/ha-overlay-two-sites/c3.yaml",
	"examples/worker-pxe/config.yaml",
}

// TestOverlayExamplesAgree checks, with the built agent's validate
// --cluster, what validating one file at a time cannot: that the nodes'
// documents describe one cluster and one overlay (keys, addresses,
// endpoints and ports, who lists whom, settings). The worker is checked
// both as its document and as the kernel command line that carries it.
func TestOverlayExamplesAgree(t *testing.T) {
	pxe := append(append([]string{}, overlayNodes[:3]...), "examples/worker-pxe/cmdline-data.txt")
	for _, files := range [][]string{overlayNodes, pxe} {
		out, code := runAgent(t, append([]string{"validate", "--strict", "--cluster"}, files...)...)
		if code != 0 || !strings.Contains(out, "cluster of 4 files: valid") {
			t.Errorf("corium-agent validate --strict --cluster %s: exit %d\n%s", strings.Join(files, " "), code, out)
		}
	}
}

// TestOverlayCheckCatchesAWrongKey is the control: c1 naming c2 by another
// key must be caught, naming c1's entry and c2.
func TestOverlayCheckCatchesAWrongKey(t *testing.T) {
	c1 := string(readRepo(t, overlayNodes[0]))
	wrong := strings.Replace(c1, "YTVL1ZT61ly3BSSd5QxfMJpuS5NuOdsnjnRKd3c0ixs= # c2", "gN65BkIKy1eCE9pP1wdc8ROUtkHLF2PfAqYdyYBz6EA= # c2", 1)
	if wrong == c1 {
		t.Fatal("c1.yaml no longer lists c2 by the key this control changes")
	}
	file := filepath.Join(t.TempDir(), "c1.yaml")
	if err := os.WriteFile(file, []byte(wrong), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := runAgent(t, append([]string{"validate", "--cluster", file}, overlayNodes[1:]...)...)
	if code != 1 || !strings.Contains(out, file+":") || !strings.Contains(out, "wireguard[0].peers[0].publicKey: is not the public key of c2 ("+overlayNodes[1]) {
		t.Errorf("a wrong key for c2 in c1: exit %d, want 1 naming c1's entry and c2\n%s", code, out)
	}
}
