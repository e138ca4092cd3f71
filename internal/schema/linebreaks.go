package schema

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// oneLineModel refuses the line breaks that YAML counts and the rest of the
// agent does not: a carriage return alone, NEL (U+0085), LINE SEPARATOR
// (U+2028) and PARAGRAPH SEPARATOR (U+2029) each end a line for yaml.v3 (and
// for cloud-init's PyYAML), while a finding's window, an editor and the
// masks of what is shown count lines by \n. With them refused, a line
// number means one line to every reader, and a mask lands on the line that
// holds the secret. A line feed, alone or after a carriage return, is the
// one line break left.
func oneLineModel(data []byte) *SyntaxError {
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		var name string
		switch {
		case r == '\n':
			line, start = line+1, i+1
		case r == '\r' && !bytes.HasPrefix(data[i+1:], []byte("\n")):
			name = "a carriage return not before a line feed"
		case r == '\u0085':
			name = "NEXT LINE (U+0085)"
		case r == '\u2028':
			name = "LINE SEPARATOR (U+2028)"
		case r == '\u2029':
			name = "PARAGRAPH SEPARATOR (U+2029)"
		}
		if name != "" {
			return &SyntaxError{Line: line, Col: utf8.RuneCount(data[start:i]) + 1, Msg: fmt.Sprintf(
				"%s, which YAML counts as a line break and a finding's window, an editor and the masks of what is shown do not; end lines with a line feed (\\n) alone", name)}
		}
		i += n
	}
	return nil
}
