package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// validate --facts refuses what plan --facts refuses on that host, in
// plan's words; without facts it cannot know, and accepts.
func TestValidateFactsRefusesWhatPlanRefuses(t *testing.T) {
	config := filepath.Join(demo, "config.yaml")
	// A host without the VRRP interface (eth0) the demo sends adverts from.
	facts := writeConfig(t, "facts.json", `{"interfaces": [{"name": "eth9", "addresses": ["198.51.100.5/24"]}], "defaultRoute": {"interface": "eth9", "source": "198.51.100.5"}}`)
	code, _, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", config, "--facts", facts)
	refusal := strings.TrimSpace(strings.TrimPrefix(errOut, "corium-agent plan: "))
	if code != exitFailed || !strings.HasPrefix(refusal, "rendering the node: ha.interface:") {
		t.Fatalf("plan: exit %d %q, want a refusal of the VRRP interface", code, errOut)
	}
	code, out, _ := runCLI(t, "validate", "--facts", facts, config)
	if code != exitFailed || !strings.Contains(out, config+": "+refusal+"\n") {
		t.Errorf("validate --facts: exit %d, want plan's %q\n%s", code, refusal, out)
	}
	if code, out, _ := runCLI(t, "validate", "--facts", filepath.Join(demo, "facts.json"), config); code != exitOK {
		t.Errorf("validate --facts with the demo's own facts: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "validate", config); code != exitOK {
		t.Errorf("validate without facts: exit %d\n%s", code, out)
	}
	bad := writeConfig(t, "bad.json", "{")
	if code, _, errOut := runCLI(t, "validate", "--facts", bad, config); code != exitUsage || !strings.Contains(errOut, "--facts:") {
		t.Errorf("unreadable facts: exit %d %q", code, errOut)
	}
}

// plan --config reads a file without a corium block as validate does, and
// refuses it in validate's words (validation, not the source).
func TestPlanRefusesNoBlockInValidatesWords(t *testing.T) {
	for _, body := range []string{"", "- a\n- b\n", "#cloud-config\nhostname: x\n"} {
		file := writeConfig(t, "node.yaml", body)
		_, vout, _ := runCLI(t, "validate", file)
		vout, _, _ = strings.Cut(vout, "\n") // the finding, not the verdict
		want := strings.TrimSpace(regexp.MustCompile(`^(:\d+:\d+)?: `).ReplaceAllString(strings.TrimPrefix(vout, file), ""))
		code, out, errOut := runCLI(t, "plan", "--root", t.TempDir(), "--config", file)
		if code != exitFailed || !strings.Contains(errOut, ": "+want+"\n") {
			t.Errorf("%q: plan exit %d, want validate's %q\n%s%s", body, code, want, out, errOut)
		}
	}
}
