package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/yamltext"
)

// SyntaxError is a document that is not YAML. Line and Col are 1-based, 0
// if unknown; Line is the line of the text the parser could not read, and
// Near says the mistake may also be on a line above it (inside a quote or a
// bracket opened there). Text is that line as a message may show it
// (yamltext.ShownLine: keys and punctuation, no values).
type SyntaxError struct {
	Line, Col int
	Near      bool
	Text      string
	Msg       string
}

func (e *SyntaxError) Error() string {
	switch {
	case e.Line == 0:
		return e.Msg
	case e.Near:
		return fmt.Sprintf("near line %d: %s", e.Line, e.detail())
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.detail())
}

// detail is the message with what the line shows and, for a line that is
// not certain, where else to look.
func (e *SyntaxError) detail() string {
	msg := e.Msg
	if e.Near {
		msg += " (the mistake may be on a line above, in a quote or bracket left open there)"
	}
	if e.Text != "" {
		msg += fmt.Sprintf("; the line reads %q", e.Text)
	}
	return msg
}

// Finding is the error as validate reports it, at its line and column.
func (e *SyntaxError) Finding() finding.Finding {
	prefix := "yaml syntax: "
	if e.Near {
		prefix = "yaml syntax, near here: "
	}
	return finding.Finding{Line: e.Line, Col: e.Col, Severity: finding.Error, Message: prefix + e.detail()}
}

// locateSyntaxError places a parser error at the line of the text the
// parser could not read. yaml.v3 reports the line where the enclosing block
// began (a list's first line for a bad indent twenty lines down), and no
// column, so the document's prefixes are parsed again, yaml.v3 still the
// one parser: the first prefix that fails the same way ends at the
// offending line, and within that line the first failing prefix ends at the
// offending column. Binary search keeps it to a few dozen parses, each no
// longer than the document up to the error, where the parser stops anyway.
func locateSyntaxError(data []byte, err error) *SyntaxError {
	line, msg := yamltext.Message(err)
	se := &SyntaxError{Line: line, Msg: msg}
	want := err.Error()
	failsSame := func(n int) bool {
		e := firstError(data[:n])
		return e != nil && e.Error() == want
	}
	ends := lineEnds(data)
	// The parser's line is where the enclosing block began: no prefix
	// ending above it holds the offending text.
	lo := min(max(line-1, 0), len(ends))
	k := lo + sort.Search(len(ends)-lo, func(i int) bool { return failsSame(ends[lo+i]) })
	if k == len(ends) {
		return se // only the whole document fails so: keep the parser's line
	}
	start := 0
	if k > 0 {
		start = ends[k-1]
	}
	text := string(data[start:ends[k]])
	se.Line, se.Text = k+1, yamltext.ShownLine(text)
	se.Near = k > 0 && firstError(data[:start]) != nil
	body := strings.TrimRight(text, "\r\n")
	c := sort.Search(len(body), func(i int) bool { return failsSame(start + i + 1) })
	if c == len(body) {
		c = len(body) - len(strings.TrimLeft(body, " \t")) // the line's first text
	}
	se.Col = utf8.RuneCountInString(body[:c]) + 1
	return se
}

// lineEnds are the offsets just past each line of data, its newline
// included; the last line need not end in one.
func lineEnds(data []byte) []int {
	var ends []int
	for i, c := range data {
		if c == '\n' {
			ends = append(ends, i+1)
		}
	}
	if len(ends) == 0 || ends[len(ends)-1] != len(data) {
		ends = append(ends, len(data))
	}
	return ends
}

// firstError is the parser's first error in data, read as ReadTree reads a
// document, or nil.
func firstError(data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var n yaml.Node
		if err := dec.Decode(&n); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return err
		}
	}
}
