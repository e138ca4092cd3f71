package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// withStdin hands the commands text as their standard input.
func withStdin(t *testing.T, text string) {
	t.Helper()
	old := stdin
	stdin = strings.NewReader(text)
	t.Cleanup(func() { stdin = old })
}

// validate - reads standard input and names it <stdin> in findings, in
// text and in JSON; - twice is a usage error (the second read is empty).
func TestValidateReadsStandardInput(t *testing.T) {
	withStdin(t, "role: worker\nclustr: {}\n")
	code, out, _ := runCLI(t, "validate", "-")
	if code != exitFailed || !strings.Contains(out, "<stdin>:2:1: clustr: unknown key") {
		t.Errorf("invalid on stdin: exit %d\n%s", code, out)
	}
	withStdin(t, "role: single\n")
	if code, out, _ := runCLI(t, "validate", "-"); code != exitOK || out != "<stdin>: valid\n" {
		t.Errorf("valid on stdin: exit %d %q", code, out)
	}
	withStdin(t, "role: single\n")
	code, out, _ = runCLI(t, "validate", "--format", "json", "-")
	var got struct {
		Files []struct {
			File  string `json:"file"`
			Valid bool   `json:"valid"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitOK || len(got.Files) != 1 || got.Files[0].File != "<stdin>" || !got.Files[0].Valid {
		t.Errorf("json from stdin: exit %d, %v\n%s", code, err, out)
	}
	withStdin(t, "role: single\n")
	if code, _, errOut := runCLI(t, "validate", "-", "-"); code != exitUsage || !strings.Contains(errOut, "standard input") {
		t.Errorf("- twice: exit %d %q", code, errOut)
	}
}
