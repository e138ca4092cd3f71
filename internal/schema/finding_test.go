package schema

import (
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
)

func someFindings(n int, sev finding.Severity) Findings {
	fs := make(Findings, n)
	for i := range fs {
		fs[i] = finding.Finding{Path: fmt.Sprintf("k%d", i), Line: i + 1, Severity: sev, Message: "wrong"}
	}
	return fs
}

// Past MaxShown, one finding stands for the rest, as severe as the worst
// of them; the findings given are left as they were.
func TestShownCutsPastMaxShown(t *testing.T) {
	if fs := someFindings(MaxShown, finding.Error); len(fs.Shown()) != MaxShown {
		t.Errorf("%d findings cut to %d", MaxShown, len(fs.Shown()))
	}
	fs := append(someFindings(MaxShown+5, finding.Warning), someFindings(2, finding.Error)...)
	shown := fs.Shown()
	want := finding.Finding{Severity: finding.Error, Message: "and 7 more findings"}
	if len(shown) != MaxShown+1 || shown[MaxShown] != want || shown[MaxShown-1] != fs[MaxShown-1] {
		t.Errorf("%d shown, ending %+v; want %d and %+v", len(shown), shown[len(shown)-1], MaxShown, want)
	}
	if fs[MaxShown].Path != fmt.Sprintf("k%d", MaxShown) {
		t.Errorf("Shown overwrote the findings: %+v", fs[MaxShown])
	}
	if last := someFindings(MaxShown+1, finding.Warning).Shown()[MaxShown]; last.Severity != finding.Warning {
		t.Errorf("warnings cut: %+v", last)
	}
	err := someFindings(MaxShown+3, finding.Error).Err().Error()
	if n := strings.Count(err, "\n") + 1; n != MaxShown+1 || !strings.HasSuffix(err, "\nand 3 more findings") {
		t.Errorf("Err joins %d lines, ending %q", n, err[len(err)-40:])
	}
}
