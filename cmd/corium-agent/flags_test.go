package main

import (
	"strings"
	"testing"
)

// Every command takes -help as a request, not a mistake, and names the flag
// it refuses.
func TestSharedFlagHandling(t *testing.T) {
	ownFlag := map[string]string{"apply": "-again", "plan": "-again", "resolve": "-config", "status": "-root", "validate": "-strict"}
	for cmd, flag := range ownFlag {
		if code, _, errOut := runCLI(t, cmd, "--help"); code != exitOK || !strings.Contains(errOut, flag) {
			t.Errorf("%s --help: exit %d, stderr %q", cmd, code, errOut)
		}
		if code, _, errOut := runCLI(t, cmd, "--bogus"); code != exitUsage || !strings.Contains(errOut, "bogus") {
			t.Errorf("%s --bogus: exit %d, stderr %q", cmd, code, errOut)
		}
	}
	for _, cmd := range []string{"plan", "resolve", "status", "validate"} {
		code, out, errOut := runCLI(t, cmd, "--format", "yaml", "node.yaml")
		if cmd != "validate" {
			code, out, errOut = runCLI(t, cmd, "--format", "yaml")
		}
		if code != exitUsage || out != "" || !strings.Contains(errOut, `--format "yaml": use text or json`) {
			t.Errorf("%s --format yaml: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
	for _, cmd := range []string{"apply", "plan", "resolve", "status"} {
		code, out, errOut := runCLI(t, cmd, "--root", "/nonexistent-root-dir")
		if code != exitUsage || out != "" || !strings.Contains(errOut, "corium-agent "+cmd+": --root /nonexistent-root-dir is not a directory") {
			t.Errorf("%s --root missing: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
}
