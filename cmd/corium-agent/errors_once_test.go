package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// Every command's refusal says its error once across stdout and stderr:
// not in a report on stdout and again as the last line on stderr, nor in
// the log beside it.
func TestEveryRefusalIsPrintedOnce(t *testing.T) {
	bad := writeConfig(t, "bad.yaml", "role: bogus\n")
	const badSays = `must be one of single, controller, controller+worker, worker (got "bogus")`
	ha := writeConfig(t, "c1.yaml", factsDoc)
	doc := writeConfig(t, "pxe.yaml", pxeDoc)
	cred := writeConfig(t, "wg0.cred", string(fixture.SealedCredential(fixture.SealedTPM2, []int{7}, 300)))
	failedRoot := t.TempDir()
	if code, _, _ := runCLI(t, "apply", "--root", failedRoot, "--config", bad); code != exitFailed {
		t.Fatal("apply of an invalid document did not fail")
	}
	cases := []struct {
		cmd  string
		args []string
		says string
	}{
		{"apply", []string{"--root", t.TempDir(), "--config", bad}, badSays},
		{"apply", []string{"--again", "--root", t.TempDir(), "--config", bad}, "node not provisioned yet"},
		{"plan", []string{"--root", t.TempDir(), "--config", bad}, badSays},
		{"plan", []string{"--root", t.TempDir(), "--config", ha}, "the host's addresses and routes are not known here"},
		{"validate", []string{bad}, badSays},
		{"resolve", []string{"--root", t.TempDir(), "--config", bad}, badSays},
		{"status", []string{"--root", failedRoot}, badSays},
		{"firewall", []string{"show", "--root", t.TempDir(), "--config", bad}, badSays},
		{"cmdline", []string{bad}, badSays},
		{"cmdline", []string{"--ipxe", "--credential", "corium.wg0=" + cred, doc}, "ImportCredential=corium.*"},
		{"facts", []string{"--root", t.TempDir(), "--netns", "/proc/self/ns/net", "--config", bad}, badSays},
		{"schema", []string{"extra"}, "unexpected argument"},
		{"version", []string{"extra"}, "unexpected argument"},
	}
	var covered []string
	for _, c := range cases {
		code, out, errOut := runCLI(t, append([]string{c.cmd}, c.args...)...)
		if n := strings.Count(out+errOut, c.says); code == exitOK || n != 1 {
			t.Errorf("%s %v: exit %d, %q said %d times, want once:\n--- stdout\n%s--- stderr\n%s", c.cmd, c.args, code, c.says, n, out, errOut)
		}
		covered = append(covered, c.cmd)
	}
	for name := range commands {
		if !slices.Contains(covered, name) {
			t.Errorf("%s has no refusal here", name)
		}
	}
}
