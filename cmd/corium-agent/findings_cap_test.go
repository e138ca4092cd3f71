package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
)

// pastTheCap is how many findings manyFindings makes beyond schema.MaxShown.
const pastTheCap = 234

// manyFindings is a document of schema.MaxShown+pastTheCap label keys, each
// refused: one finding apiece.
func manyFindings(t *testing.T) string {
	var b strings.Builder
	b.WriteString("role: single\nnode:\n  labels:\n")
	for i := range schema.MaxShown + pastTheCap {
		fmt.Fprintf(&b, "    -bad%d: v\n", i)
	}
	return writeConfig(t, "many.yaml", b.String())
}

var andMore = fmt.Sprintf("and %d more findings", pastTheCap)

// validate prints the first findings and one line for the rest, in text and
// in JSON, and the file is invalid all the same.
func TestValidateCutsFindingsPastTheCap(t *testing.T) {
	file := manyFindings(t)
	code, out, _ := runCLI(t, "validate", file)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitFailed || len(lines) != schema.MaxShown+2 || lines[len(lines)-2] != file+": "+andMore ||
		!strings.HasPrefix(lines[len(lines)-1], file+": invalid: ") {
		t.Errorf("exit %d, %d lines ending %q; want %d findings, %q and the verdict", code, len(lines), lines[len(lines)-2:], schema.MaxShown, file+": "+andMore)
	}
	for _, l := range lines[:schema.MaxShown] {
		if !strings.HasPrefix(l, file+":") || !strings.Contains(l, "must be a Kubernetes") {
			t.Fatalf("not a finding: %q", l)
		}
	}

	code, out, _ = runCLI(t, "validate", "--format", "json", file)
	var rep struct {
		Files []struct {
			Valid    bool
			Findings []struct {
				Path, Severity, Message string
				Line                    int
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	fs := rep.Files[0].Findings
	if last := fs[len(fs)-1]; code != exitFailed || rep.Files[0].Valid || len(fs) != schema.MaxShown+1 ||
		last.Message != andMore || last.Path != "" || last.Line != 0 || last.Severity != "error" {
		t.Errorf("exit %d, valid %v, %d findings ending %+v", code, rep.Files[0].Valid, len(fs), last)
	}
}

// A failing apply records as many findings in the status file, and what
// plan, apply, resolve and cmdline print is cut alike.
func TestApplyRecordsFindingsUpToTheCap(t *testing.T) {
	file := manyFindings(t)
	root := t.TempDir()
	code, out, errOut := runCLI(t, "apply", "--root", root, "--config", file)
	if code != exitFailed {
		t.Fatalf("apply: exit %d\n%s", code, out)
	}
	st, raw := readStatus(t, root)
	errs := st.Validation.Errors
	if len(errs) != schema.MaxShown+1 || errs[len(errs)-1] != (finding.Finding{Severity: finding.Error, Message: andMore}) {
		t.Errorf("status records %d errors, ending %+v; want %d and %q", len(errs), errs[len(errs)-1], schema.MaxShown, andMore)
	}
	if n := strings.Count(st.Error, "must be a Kubernetes"); n != schema.MaxShown || !strings.HasSuffix(st.Error, andMore) {
		t.Errorf("the status error holds %d findings, ending %q", n, st.Error[max(0, len(st.Error)-80):])
	}
	if len(raw) > 1<<20 {
		t.Errorf("status file of %d bytes", len(raw))
	}
	printed := map[string]string{"apply": out + errOut}
	_, out, errOut = runCLI(t, "plan", "--root", root, "--config", file)
	printed["plan"] = out + errOut
	_, out, errOut = runCLI(t, "resolve", "--root", root, "--config", file)
	printed["resolve"] = out + errOut
	_, out, errOut = runCLI(t, "cmdline", file)
	printed["cmdline"] = out + errOut
	for cmd, text := range printed {
		// Each prints the findings more than once (a log line, the outcome,
		// the error), each time cut.
		copies := strings.Count(text, andMore)
		if n := strings.Count(text, "must be a Kubernetes"); copies == 0 || n != copies*schema.MaxShown {
			t.Errorf("%s printed %d findings in %d copies of %q", cmd, n, copies, andMore)
		}
	}
}
