package inspect

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/rootfs"
)

// TestFirewallFile drives the guard's file, not the kernel, from healthy to
// broken on a provisioned, guarded node, and checks the verdict and the
// report: each case says what k0s does and what to run.
func TestFirewallFile(t *testing.T) {
	n := newNode(t, "wg0")
	dropIn := firewall.K0sDropInPath("k0scontroller.service")
	for _, c := range []struct {
		name  string
		edit  func(t *testing.T, root rootfs.Root)
		line  string
		field func(*Firewall) string
	}{
		{name: "gone, the drop-in asserts it",
			edit: func(t *testing.T, root rootfs.Root) { remove(t, root, firewall.FilePath) },
			line: "degraded: firewall: guard missing: no guard at " + firewall.FilePath + ", which k0scontroller.service requires (" + dropIn +
				" asserts it): k0s will not start; run corium-agent apply --again to render the guard again",
			field: func(f *Firewall) string { return f.Status }},
		{name: "gone, an older agent's drop-in",
			edit: func(t *testing.T, root rootfs.Root) {
				remove(t, root, firewall.FilePath)
				write(t, root, dropIn, "# managed by corium-agent\n[Unit]\nAfter=corium-firewall.service\nRequires=corium-firewall.service\n")
			},
			line: "degraded: firewall: guard missing: no guard at " + firewall.FilePath + ", and " + dropIn + ", from an older agent, does not keep k0scontroller.service from starting without it: " +
				"k0s runs with its cluster ports open to every link; run corium-agent apply --again to render the guard and the drop-in again",
			field: func(f *Firewall) string { return f.Status }},
		{name: "torn",
			edit: func(t *testing.T, root rootfs.Root) { write(t, root, firewall.FilePath, `{"version": 2, "on": tr`) },
			line: "degraded: firewall: guard file: reading " + "ROOT" + firewall.FilePath + ": the rendered guard cannot be used: decoding the guard: unexpected EOF; " +
				"corium-firewall fails on it, so k0s does not start; run corium-agent apply --again to render the guard again",
			field: func(f *Firewall) string { return f.FileProblem }},
		{name: "version 1, from an older agent",
			edit: func(t *testing.T, root rootfs.Root) {
				write(t, root, firewall.FilePath, `{"version": 1, "on": true, "ports": [{"port": 10250, "proto": "tcp"}], "interfaces": ["lo", "wg0"], "podCIDR": "10.244.0.0/16"}`)
			},
			line: "degraded: firewall: guard file: " + firewall.FilePath + " is version 1, rendered by an older agent: it does not name the CNI's pod interfaces, " +
				"so pod sources are accepted on no interface but lo and the overlay, and pods reach none of the guarded ports (the API through the kubernetes service, " +
				"the kubelet from metrics-server); run corium-agent apply --again to render the guard again",
			field: func(f *Firewall) string { return f.Status + " " + f.FileProblem }},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := provision(t, n)
			c.edit(t, root)
			o, _ := healthy(t, n, 10*time.Second)
			o.Root = root
			r := Inspect(context.Background(), o)
			want := strings.ReplaceAll(c.line, "ROOT", root.Dir())
			if r.Verdict.Line != want {
				t.Errorf("verdict\n got %q\nwant %q", r.Verdict.Line, want)
			}
			if r.Firewall == nil || c.field(r.Firewall) == "" || len(r.Unknown) != 0 {
				t.Errorf("firewall %+v, unknown %v", r.Firewall, r.Unknown)
			}
			if text := textOf(r); r.Firewall.FileProblem != "" && !strings.Contains(text, "  guard file: "+r.Firewall.FileProblem+"\n") {
				t.Errorf("text does not show the file's problem:\n%s", text)
			}
		})
	}
}

func remove(t *testing.T, root rootfs.Root, p string) {
	t.Helper()
	if _, err := root.Remove(p); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, root rootfs.Root, p, content string) {
	t.Helper()
	if _, err := root.WriteFile(p, []byte(content), 0o644, 0o755); err != nil {
		t.Fatal(err)
	}
}
