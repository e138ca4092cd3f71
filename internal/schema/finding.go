package schema

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/corium/corium-agent/internal/finding"
)

// Findings are a document's problems (package finding's one type), in
// document order once sorted.
type Findings []finding.Finding

// MarshalJSON writes no findings as [], never null, so a tool reading them
// need not tell the two apart.
func (fs Findings) MarshalJSON() ([]byte, error) {
	if fs == nil {
		return []byte("[]"), nil
	}
	return json.Marshal([]finding.Finding(fs))
}

// MaxShown is the most findings a command prints or records of one
// document: validate's text and JSON, the errors resolve, plan and apply
// print, and the status file. It is the one exception to reporting every
// problem at once, for documents no operator writes: a document built to
// make thousands of findings would otherwise fill a terminal, a log, or the
// tmpfs the status file lives on. An operator's document, fixed in a few
// passes, never meets it.
const MaxShown = 1000

// Shown returns the findings as a command prints or records them: all of
// them, or the first MaxShown and one more, without a path or position,
// that says how many were left off (an error when any of those is one, so
// that what is shown is as valid as what was found).
func (fs Findings) Shown() Findings {
	if len(fs) <= MaxShown {
		return fs
	}
	rest := fs[MaxShown:]
	more := finding.Finding{Severity: finding.Warning, Message: fmt.Sprintf("and %d more findings", len(rest))}
	if len(rest.Errors()) > 0 {
		more.Severity = finding.Error
	}
	return append(fs[:MaxShown:MaxShown], more)
}

// Errors returns the error-severity findings.
func (fs Findings) Errors() Findings { return fs.filter(finding.Error) }

// Warnings returns the warning-severity findings.
func (fs Findings) Warnings() Findings { return fs.filter(finding.Warning) }

func (fs Findings) filter(s finding.Severity) Findings {
	var out Findings
	for _, f := range fs {
		if f.Severity == s {
			out = append(out, f)
		}
	}
	return out
}

// Err joins the error-severity findings, each "PATH: message", as Shown
// cuts them, or returns nil when there are none.
func (fs Findings) Err() error {
	var errs []error
	for _, f := range fs.Errors().Shown() {
		errs = append(errs, errors.New(f.String()))
	}
	return errors.Join(errs...)
}

// sortByPosition puts findings in document order; findings without a
// position keep their relative order after those with one.
func (fs Findings) sortByPosition() {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if (a.Line == 0) != (b.Line == 0) {
			return a.Line != 0
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// collector gathers findings and places them using the document's positions.
// A finding about a field that already failed to decode (or sits under one)
// is dropped: its zero value would only repeat the problem.
type collector struct {
	doc      *Document
	findings Findings
	broken   map[string]bool
}

// isBroken looks the path and each path above it up, so a document with
// thousands of broken keys costs no more per finding than one with none.
func (c *collector) isBroken(path string) bool {
	if len(c.broken) == 0 {
		return false
	}
	for p := path; ; p = parentPath(p) {
		if c.broken[p] {
			return true
		}
		if p == "" {
			return false
		}
	}
}

func (c *collector) add(sev finding.Severity, path string, format string, args ...any) {
	c.addAt(sev, path, path, format, args...)
}

// addAt places a finding about path at another path's position (a map key).
func (c *collector) addAt(sev finding.Severity, at, path string, format string, args ...any) {
	if c.isBroken(path) {
		return
	}
	line, col := c.doc.Position(at)
	c.findings = append(c.findings, finding.Finding{
		Path: shownPath(path), Line: line, Col: col, Severity: sev,
		Message: fmt.Sprintf(format, args...),
	})
}

func (c *collector) errorf(path, format string, args ...any) {
	c.add(finding.Error, path, format, args...)
}

func (c *collector) errorAt(at, path, format string, args ...any) {
	c.addAt(finding.Error, at, path, format, args...)
}

func (c *collector) warnf(path, format string, args ...any) {
	c.add(finding.Warning, path, format, args...)
}
