package main

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
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

// An invalid document's error is printed once, on stderr, as the run's,
// and not again in the plan.
func TestPlanPrintsAnErrorOnce(t *testing.T) {
	file := writeConfig(t, "node.yaml", "role: worker\nversion: 2\n")
	code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", file)
	if n := strings.Count(out+errOut, "version: must be 1"); code != exitFailed || n != 1 || !strings.Contains(errOut, "version: must be 1") {
		t.Errorf("exit %d, the error printed %d times, want once on stderr:\n%s%s", code, n, out, errOut)
	}
}

// plan's default text is a summary an operator reads: each file with its
// mode, size and change, the actions, the node address; no content and no
// verify line of a thousand characters. --full lists everything.
func TestPlanSummaryAndFull(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	code, out, errOut := runCLI(t, demoArgs("plan", root)...)
	if code != exitOK {
		t.Fatalf("plan: exit %d\n%s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	for _, want := range []string{"node address: 10.10.0.1", "created   /etc/k0s/k0s.yaml (0600, ", " bytes, holds secrets)", "action    verify-wireguard wg-quick@wg0.service wg0 (plan --full", "k0s-install k0scontroller.service k0s install controller"} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary lacks %q:\n%s", want, out)
		}
	}
	for _, l := range lines {
		if len(l) > 400 || strings.HasPrefix(l, "      ") {
			t.Errorf("the summary has a content or overlong line: %q", l)
		}
	}
	if len(lines) > 60 {
		t.Errorf("the summary is %d lines", len(lines))
	}
	_, full, _ := runCLI(t, demoArgs("plan", root, "--full")...)
	if !strings.Contains(full, "PrivateKey = [redacted]") || !strings.Contains(full, "peer=") || len(strings.Split(full, "\n")) <= len(lines) {
		t.Errorf("plan --full does not list the content and the verify line:\n%s", full)
	}
}
