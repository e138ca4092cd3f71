package cluster

import (
	"fmt"
	"sort"

	"github.com/corium/corium-agent/internal/finding"
)

// Place is a field in one file of the set. File is the file as named, with
// where in it the document is when the document is not the file's own text
// ("w1.yaml (write_files[0].content)"); Line and Col are then the
// document's.
type Place struct {
	File string `json:"file"`
	Path string `json:"path"`
	Line int    `json:"line,omitempty"`
	Col  int    `json:"col,omitempty"`
}

// Finding is one problem between files: at its first place, with the other
// places involved in Related (the message names them too).
type Finding struct {
	File string `json:"file"`
	finding.Finding
	Related []Place `json:"related"`
	// FollowsFrom is the root cause this finding follows from, when one was
	// found: fixing that one fixes this one (see cause.go).
	FollowsFrom *Place `json:"followsFrom,omitempty"`
	// Fix is the YAML to add where the finding has one obvious fix,
	// printed and never written; it holds public values only.
	Fix string `json:"fix,omitempty"`

	order int  // the file's place in the set
	cause bool // other findings may follow from it
}

// Findings are the set's problems, in a fixed order once sorted: the root
// causes first, each followed by what follows from it (cause.go), then the
// rest by file in the order given, then by position, path and message.
type Findings []Finding

// Errors returns the error-severity findings.
func (fs Findings) Errors() Findings { return fs.filter(finding.Error) }

// Warnings returns the warning-severity findings.
func (fs Findings) Warnings() Findings { return fs.filter(finding.Warning) }

func (fs Findings) filter(s finding.Severity) Findings {
	out := Findings{}
	for _, f := range fs {
		if f.Severity == s {
			out = append(out, f)
		}
	}
	return out
}

func (fs Findings) sort() {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.order != b.order:
			return a.order < b.order
		case (a.Line == 0) != (b.Line == 0):
			return a.Line != 0
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Col != b.Col:
			return a.Col < b.Col
		case a.Path != b.Path:
			return a.Path < b.Path
		}
		return a.Message < b.Message
	})
}

// report collects findings.
type report struct{ findings Findings }

func (r *report) add(sev finding.Severity, n *node, path string, related []Place, format string, args ...any) {
	at := n.at(path)
	if related == nil {
		related = []Place{}
	}
	r.findings = append(r.findings, Finding{
		File:    at.File,
		Finding: finding.Finding{Path: path, Line: at.Line, Col: at.Col, Severity: sev, Message: fmt.Sprintf(format, args...)},
		Related: related,
		order:   n.order,
	})
}

func (r *report) errorf(n *node, path string, related []Place, format string, args ...any) {
	r.add(finding.Error, n, path, related, format, args...)
}

func (r *report) warnf(n *node, path string, related []Place, format string, args ...any) {
	r.add(finding.Warning, n, path, related, format, args...)
}
