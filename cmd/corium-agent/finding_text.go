package main

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/shown"
	"github.com/corium/corium-agent/internal/source"
)

// findingText is a finding of file as validate and cmdline print it. At a
// position in the file itself it is one line, FILE:LINE:COL: [warning: ]PATH:
// message, the form editors and grep understand. At a position in a
// document decoded out of the file (source.Delivery.Decoded: a kernel
// command line's data:, a boot script's kernel line, an encoded write_files
// content), where no editor shows that line and column, it names the
// file's line that carries the document, then the document and the
// position in it, FILE:LINE: PLACE (decoded) LINE:COL: [warning: ]PATH:
// message, and under it a window of the decoded line, every value that
// could be a secret masked, and every value one of all (the document's
// findings) points at, with a ^ under the column.
//
// The file's name and the message may carry outside text (a name from a
// directory listing, an interface name from a facts file): the name is
// quoted when it holds anything but printable ASCII, and every line is
// written through shown.Line, so a finding stays the one line it is.
func findingText(file string, d *source.Delivery, f finding.Finding, all schema.Findings) string {
	place, carrier, decoded := d.Decoded()
	if !decoded || f.Line == 0 {
		return shown.Line(formatFinding(shown.Text(file), f))
	}
	file = shown.Text(file)
	if carrier > 0 {
		file = fmt.Sprintf("%s:%d", file, carrier)
	}
	col := max(f.Col, 1)
	text := shown.Line(fmt.Sprintf("%s: %s (decoded) %d:%d: %s%s", file, place, f.Line, col, severityWord(f), f))
	flagged := make([][2]int, 0, len(all))
	for _, g := range all {
		if g.Line > 0 {
			flagged = append(flagged, [2]int{g.Line, g.Col})
		}
	}
	if e, ok := d.Excerpt(f.Line, col, flagged); ok {
		text += "\n    " + shown.Line(e.Text) + "\n    " + strings.Repeat(" ", e.Col-1) + "^"
	}
	return text
}
