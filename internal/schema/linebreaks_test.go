package schema

import (
	"strings"
	"testing"
)

// A document holds one kind of line break, so a line number is one line to
// every reader: a lone carriage return, NEL, LINE SEPARATOR and PARAGRAPH
// SEPARATOR are refused at their line and column, a CRLF document is read.
func TestOneLineModel(t *testing.T) {
	for brk, name := range map[string]string{"\r": "a carriage return", "\u0085": "NEXT LINE", "\u2028": "LINE SEPARATOR", "\u2029": "PARAGRAPH SEPARATOR"} {
		doc := "role: worker\ncluster:\n  name: a" + brk + "  endpoint: x\n"
		_, err := ReadTree([]byte(doc), false)
		if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), name) {
			t.Errorf("%q: %v", brk, err)
		}
	}
	if _, err := ReadTree([]byte("role: worker\r\ncluster:\r\n  name: a\r\n"), false); err != nil {
		t.Errorf("CRLF: %v", err)
	}
}
