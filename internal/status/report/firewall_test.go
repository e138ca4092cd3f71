package report

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/guardfile"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
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
		{name: "version 2, from an agent before the pod masquerade",
			edit: func(t *testing.T, root rootfs.Root) {
				g := loadGuard(t, root)
				g.Masquerade = false
				write(t, root, firewall.FilePath, string(g.File()))
			},
			line: "degraded: firewall: guard file: " + firewall.FilePath + " was rendered by an older agent or from another configuration: it does not masquerade pods' packets " +
				"to other nodes' addresses over the overlay, which the peers' WireGuard drops; run corium-agent apply --again to render it again",
			field: func(f *Firewall) string { return f.FileProblem }},
		{name: "an endpoint off the overlay the file does not admit",
			edit: func(t *testing.T, root rootfs.Root) {
				editApplied(t, root, "endpoint: 10.77.0.1", "endpoint: 192.0.2.100")
			},
			line: "degraded: firewall: guard file: " + firewall.FilePath + " was rendered by an older agent or from another configuration: it does not admit 8132/tcp 9443/tcp " +
				"addressed to cluster.endpoint 192.0.2.100, so the clients that reach the cluster there (joining controllers, konnectivity agents, kubelets) are dropped; " +
				"run corium-agent apply --again to render it again",
			field: func(f *Firewall) string { return f.FileProblem }},
		{name: "an applied configuration this agent renders no guard from",
			edit: func(t *testing.T, root rootfs.Root) {
				editApplied(t, root, "endpoint: 10.77.0.1", "endpoint: api.example.com")
			},
			line: "degraded: firewall: guard file: this agent renders no guard from the applied configuration: cluster.endpoint: api.example.com is a name, whose address " +
				"the guard cannot know, so what reaches the cluster through it would be dropped; add 8132, 9443 to firewall.publicPorts, or give the endpoint as an IP; " +
				"correct the configuration and run corium-agent apply --again",
			field: func(f *Firewall) string { return f.FileProblem }},
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

func loadGuard(t *testing.T, root rootfs.Root) firewall.Guard {
	t.Helper()
	g, err := guardfile.Load(root)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// editApplied edits the applied configuration as a node provisioned from
// another document would hold it.
func editApplied(t *testing.T, root rootfs.Root, old, with string) {
	t.Helper()
	data, err := root.ReadFile(status.AppliedPath)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("applied configuration without %q: %v", old, err)
	}
	write(t, root, status.AppliedPath, strings.Replace(string(data), old, with, 1))
}

// With clusterPorts open on kube-router, the table holds the pod
// masquerade alone: a missing one is reported as that, never as a guard.
func TestMasqueradeAloneIsNotAGuard(t *testing.T) {
	n := newNode(t, "wg0")
	config := strings.Replace(n.config(), "  clusterPorts: overlay\n  publicPorts: [6443]\n", "  clusterPorts: open\n", 1)
	if config == n.config() {
		t.Fatal("the node's config no longer has the lines this test edits")
	}
	root := rootfs.New(t.TempDir())
	provisionWith(t, root, config, "")
	for _, c := range []struct {
		status nft.Status
		line   string
	}{
		{nft.Current, "ok"},
		{nft.Missing, "degraded: firewall: pod masquerade missing: fake missing"},
		{nft.Stale, "degraded: firewall: pod masquerade stale: fake stale"},
	} {
		o, _ := healthy(t, n, 10*time.Second)
		o.Root, o.Guard = root, fakeGuard{status: c.status}
		r := Inspect(context.Background(), o)
		if r.Verdict.Line != c.line || r.Firewall == nil || r.Firewall.Holds != "the pod masquerade" || r.Firewall.FileProblem != "" {
			t.Errorf("%s: verdict %q, firewall %+v; want %q, holding the pod masquerade", c.status, r.Verdict.Line, r.Firewall, c.line)
		}
	}
}
