package main

import (
	"strings"
	"testing"
)

// A node address and hostname left to the boot say so once, with why.
func TestPlanDecidedAtBootOnce(t *testing.T) {
	cfg := writeConfig(t, "node.yaml", "role: worker\njoin:\n  tokenFrom:\n    file: /etc/corium/join-token\n")
	code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", cfg)
	if code != exitOK {
		t.Fatalf("plan: exit %d\n%s", code, errOut)
	}
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if k, _, ok := strings.Cut(l, ": "); ok && (k == "node address" || k == "hostname") {
			lines[k] = l
		}
	}
	want := map[string]string{
		"node address": "node address: decided at boot: no interface is marked nodeAddress; the source address of the IPv4 default route is read on the node at boot",
		"hostname":     "hostname: decided at boot",
	}
	for k, w := range want {
		if lines[k] != w {
			t.Errorf("%s line %q, want %q", k, lines[k], w)
		}
	}
	if n := strings.Count(out, "no interface is marked nodeAddress"); n != 1 {
		t.Errorf("the node address's reason is printed %d times, want once:\n%s", n, out)
	}
}

// An invalid document's error is printed once, not again as the run's.
func TestPlanPrintsAnErrorOnce(t *testing.T) {
	file := writeConfig(t, "node.yaml", "role: worker\nversion: 2\n")
	code, out, _ := runCLI(t, "plan", "--root", t.TempDir(), "--config", file)
	if n := strings.Count(out, "version: must be 1"); code != exitFailed || n != 1 {
		t.Errorf("exit %d, the error printed %d times, want once:\n%s", code, n, out)
	}
}
