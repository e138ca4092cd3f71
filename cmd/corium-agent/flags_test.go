package main

import (
	"strings"
	"testing"
)

// Every command takes -h and --help as a request for its usage: printed on
// stdout, the output asked for, exit 0, in one style. A flag it does not
// know is a usage error: on stderr, with the usage, exit 2.
func TestSharedFlagHandling(t *testing.T) {
	ownFlag := map[string]string{"apply": "-again", "plan": "-again", "resolve": "-config", "status": "-root", "validate": "-strict",
		"cmdline": "-grub", "firewall": "-netns", "facts": "-netns", "schema": "", "version": ""}
	if len(ownFlag) != len(commands) {
		t.Errorf("%d commands, %d checked here", len(commands), len(ownFlag))
	}
	for cmd, flag := range ownFlag {
		for _, help := range []string{"-h", "--help", "-help"} {
			code, out, errOut := runCLI(t, cmd, help)
			if code != exitOK || errOut != "" || !strings.HasPrefix(out, "usage: corium-agent "+cmd+" [flags]") || !strings.Contains(out, flag) {
				t.Errorf("%s %s: exit %d, stdout %q, stderr %q", cmd, help, code, out, errOut)
			}
			if code, helpOut, _ := runCLI(t, "help", cmd); code != exitOK || helpOut != out {
				t.Errorf("help %s: exit %d, %q; want what %s -h prints", cmd, code, helpOut, cmd)
			}
		}
		code, out, errOut := runCLI(t, cmd, "--bogus")
		if code != exitUsage || out != "" || !strings.Contains(errOut, "bogus") || !strings.Contains(errOut, "usage: corium-agent "+cmd+" [flags]") {
			t.Errorf("%s --bogus: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}, {"help", "-h"}} {
		code, out, errOut := runCLI(t, args...)
		if code != exitOK || errOut != "" || !strings.HasPrefix(out, "usage: corium-agent COMMAND [flags] ARGS") {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out, errOut)
		}
	}
	if code, out, errOut := runCLI(t); code != exitUsage || out != "" || !strings.HasPrefix(errOut, "usage: corium-agent COMMAND") {
		t.Errorf("no command: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, cmd := range []string{"apply", "plan", "resolve", "status", "schema", "version", "facts"} {
		code, out, errOut := runCLI(t, cmd, "extra")
		if code != exitUsage || out != "" || !strings.HasPrefix(errOut, "corium-agent "+cmd+`: unexpected argument "extra"`+"\nusage: corium-agent "+cmd+" [flags]") {
			t.Errorf("%s extra: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
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
	for _, cmd := range []string{"apply", "plan", "resolve", "status", "facts"} {
		code, out, errOut := runCLI(t, cmd, "--root", "/nonexistent-root-dir")
		if code != exitUsage || out != "" || !strings.Contains(errOut, "corium-agent "+cmd+": --root /nonexistent-root-dir is not a directory") {
			t.Errorf("%s --root missing: exit %d, stdout %q, stderr %q", cmd, code, out, errOut)
		}
	}
}
