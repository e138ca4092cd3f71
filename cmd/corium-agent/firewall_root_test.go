package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// renderedRoot is a root holding the guard of firewallDoc, as first boot
// renders it.
func renderedRoot(t *testing.T) string {
	t.Helper()
	cfg, _, err := schema.Load([]byte(firewallDoc))
	if err != nil {
		t.Fatal(err)
	}
	g, err := firewall.Render(cfg, schema.Effective(cfg))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "var/lib/corium"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, firewall.FilePath), g.File(), 0o600); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestFirewallRootIsNotTheKernel runs the command, with a root other than /,
// inside a namespace standing in for a workstation's own network: apply and
// remove refuse to touch it and say what to pass, show prints the rendered
// guard without comparing it; with --netns they act on the namespace named.
func TestFirewallRootIsNotTheKernel(t *testing.T) {
	host.RequireRoot(t, "ip", "nft")
	workstation, node := netns.New(t, "fwr-ws"), netns.New(t, "fwr-node")
	root := renderedRoot(t)
	hasTable := func(ns *netns.Netns) bool {
		_, err := ns.Try("nft", "list", "table", "inet", "corium")
		return err == nil
	}

	r := runFirewallIn(t, workstation, "apply", "--root", root)
	if r.code != exitUsage || !strings.Contains(r.stderr, "--root "+root+" is not /") || !strings.Contains(r.stderr, "pass --netns PATH") {
		t.Errorf("apply --root without --netns = %+v; want a usage error naming --netns", r)
	}
	if hasTable(workstation) {
		t.Fatal("apply --root programmed the kernel it ran on")
	}

	r = runFirewallIn(t, workstation, "show", "--root", root)
	if r.code != exitOK || !strings.Contains(r.stdout, "guarded:     179/tcp 2380/tcp 8080/tcp 8132/tcp 9443/tcp 10249/tcp 10250/tcp 10256/tcp 20244/tcp") ||
		!strings.Contains(r.stdout, "table:       not compared: --root "+root+" is not /; pass --netns PATH") {
		t.Errorf("show --root without --netns = %+v; want the rendered guard, not compared", r)
	}

	if r = runFirewallOn(t, node, "apply", "--root", root); r.code != exitOK || !strings.Contains(r.stdout, "table:       current") {
		t.Fatalf("apply --root --netns = %+v", r)
	}
	if !hasTable(node) || hasTable(workstation) {
		t.Fatalf("after apply --netns: table in the named namespace %v, in the one the command ran in %v; want only the former", hasTable(node), hasTable(workstation))
	}
	if r = runFirewallOn(t, node, "show", "--root", root); r.code != exitOK || !strings.Contains(r.stdout, "table:       current") {
		t.Errorf("show --root --netns = %+v", r)
	}

	// remove with a root but no namespace: the namespace it runs in keeps
	// its table (the node's here, to show it is left alone).
	r = runFirewallIn(t, node, "remove", "--root", root)
	if r.code != exitUsage || !strings.Contains(r.stderr, "to remove the guard in that network namespace") {
		t.Errorf("remove --root without --netns = %+v; want a usage error", r)
	}
	if !hasTable(node) {
		t.Fatal("remove --root removed the table of the kernel it ran on")
	}
	if r = runFirewallOn(t, node, "remove", "--root", root); r.code != exitOK || hasTable(node) {
		t.Fatalf("remove --root --netns = %+v, table left %v", r, hasTable(node))
	}

	notNetns := filepath.Join(root, firewall.FilePath)
	if r = runFirewallCmd(t, "apply", "--root", root, "--netns", notNetns); r.code != exitFailed || !strings.Contains(r.stderr, "--netns "+notNetns+" is not a network namespace") {
		t.Errorf("--netns on a plain file = %+v", r)
	}
}

// TestFirewallIfRendered is what nftables.service's drop-in runs: with no
// rendered guard it does nothing, quietly; with one it programs it.
func TestFirewallIfRendered(t *testing.T) {
	host.RequireRoot(t, "ip", "nft")
	ns := netns.New(t, "fwr-ifr")
	r := runFirewallOn(t, ns, "apply", "--if-rendered", "--root", t.TempDir())
	if r.code != exitOK || r.stdout != "" || r.stderr != "" {
		t.Errorf("apply --if-rendered with no rendered guard = %+v; want exit 0 and no output", r)
	}
	if _, err := ns.Try("nft", "list", "table", "inet", "corium"); err == nil {
		t.Error("apply --if-rendered with no rendered guard loaded a table")
	}
	// Without the flag the same root is an error: the flag is what makes it quiet.
	if r = runFirewallOn(t, ns, "apply", "--root", t.TempDir()); r.code != exitFailed || !strings.Contains(r.stderr, "no rendered guard") {
		t.Errorf("apply with no rendered guard = %+v; want it to fail", r)
	}
	root := renderedRoot(t)
	if r = runFirewallOn(t, ns, "apply", "--if-rendered", "--root", root); r.code != exitOK || !strings.Contains(r.stdout, "table:       current") {
		t.Errorf("apply --if-rendered with a rendered guard = %+v", r)
	}
	// A rendered guard that cannot be used is still loud.
	if err := os.WriteFile(filepath.Join(root, firewall.FilePath), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r = runFirewallOn(t, ns, "apply", "--if-rendered", "--root", root); r.code != exitFailed || !strings.Contains(r.stderr, "cannot be used") {
		t.Errorf("apply --if-rendered with a torn file = %+v; want it to fail", r)
	}
}

func TestFirewallIfRenderedUsage(t *testing.T) {
	for _, args := range [][]string{
		{"show", "--if-rendered"},
		{"remove", "--if-rendered"},
		{"apply", "--if-rendered", "--config", "node.yaml"},
	} {
		if r := runFirewallCmd(t, args...); r.code != exitUsage || !strings.Contains(r.stderr, "--if-rendered is for apply from the rendered file") {
			t.Errorf("firewall %v = %+v", args, r)
		}
	}
}

// A node provisioned by an older agent has a version-1 file: show says what
// its guard leaves out and what to run.
func TestFirewallShowVersion1(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "var/lib/corium"), 0o700); err != nil {
		t.Fatal(err)
	}
	v1 := `{"version": 1, "on": true, "ports": [{"port": 10250, "proto": "tcp"}], "interfaces": ["lo", "wg0"], "podCIDR": "10.244.0.0/16"}`
	if err := os.WriteFile(filepath.Join(root, firewall.FilePath), []byte(v1), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runFirewallCmd(t, "show", "--root", root)
	if r.code != exitOK || !strings.Contains(r.stdout, "pod network: 10.244.0.0/16 on no interface\n") ||
		!strings.Contains(r.stdout, "outdated:    "+firewall.FilePath+" is version 1") || !strings.Contains(r.stdout, "run corium-agent apply --again") {
		t.Errorf("show of a version-1 file = %+v", r)
	}
}
