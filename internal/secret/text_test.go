package secret_test

import (
	"testing"

	"github.com/corium/corium-agent/internal/secret"
)

// A masked run shows the marker on its first line and after the
// indentation of each line it goes on in; a hidden value shows its key
// and the marker and leaves its other lines out; the lines around keep
// their "\r", which belongs to the break, not to the line.
func TestTextShowsMaskedAndHiddenValues(t *testing.T) {
	text := secret.NewText("a: {k: Pw1}\r\nb: |\r\n  Qz7\r\n  Xw9\r\nc: 1\r\nd: Zz\n  Yy\ne: 2")
	if got := text.At(0); got != "a: {k: Pw1}" {
		t.Errorf("At(0) = %q: a line's \\r is the break's", got)
	}
	text.Mask(secret.Pos{Line: 0, Col: 7}, secret.Pos{Line: 0, Col: 10})
	text.HideValue(1, "b:", 3)
	text.Mask(secret.Pos{Line: 5, Col: 3}, secret.Pos{Line: 6, Col: 4})
	want := "a: {k: [redacted]}\nb: [redacted]\nc: 1\r\nd: [redacted]\n  [redacted]\ne: 2"
	if got := text.String(); got != want {
		t.Errorf("String() =\n%q\nwant\n%q", got, want)
	}
	line, at, ok := text.Line(1, 9)
	if !ok || line != "a: {k: [redacted]}" || at != 8 {
		t.Errorf("Line(1, 9) = %q, %d, %v: the column inside a masked run stands at its marker", line, at, ok)
	}
}

// Of two values hidden on one line, the first key's prefix ends the
// line: the second's would show the first value.
func TestTextHideValueKeepsTheShorterPrefix(t *testing.T) {
	text := secret.NewText("{a: Pw1, b: Pw2}")
	text.HideValue(0, "{a:", 0)
	text.HideValue(0, "{a: Pw1, b:", 0)
	if got := text.String(); got != "{a: [redacted]" {
		t.Errorf("String() = %q", got)
	}
}

// An empty known value masks nothing: replacing "" would put the marker
// between every two characters and hide the text it was to show.
func TestMaskValuesSkipsTheEmptyValue(t *testing.T) {
	if got := secret.MaskValues("wg: bad key Pw1 at line 2", []string{"", "Pw1"}); got != "wg: bad key [redacted] at line 2" {
		t.Errorf("MaskValues = %q", got)
	}
}

// A secret that holds another is masked whole, whichever comes first in
// the list: masking the shorter first would leave the rest of the longer
// around the marker.
func TestMaskValuesLongerFirst(t *testing.T) {
	if got := secret.MaskValues("key Pw1-tail end", []string{"Pw1", "Pw1-tail"}); got != "key [redacted] end" {
		t.Errorf("MaskValues = %q", got)
	}
}
