package shown

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text is s as a text report shows a value: s itself when every byte is
// printable ASCII (0x20 to 0x7E), else s quoted as %+q quotes it
// (strconv.QuoteToASCII: quotes, backslash escapes for control characters,
// \u for every rune past ASCII, \x for a byte that is no UTF-8). Its result
// is always printable ASCII, so a value shown twice is shown alike, and
// quoting every rune past ASCII leaves no look-alike letter and no format
// character to a terminal.
func Text(s string) string {
	for i := range len(s) {
		if s[i] < 0x20 || s[i] > 0x7e {
			return strconv.QuoteToASCII(s)
		}
	}
	return s
}

// Line is s, one line of a report that may carry outside text the program
// did not quote (an error, a journal line), with every control and format
// character, its line breaks among them, written as a Go escape (\n, \x1b,
// \u202e) and every byte that is no UTF-8 as \xNN; the rest, spaces and
// punctuation included, is left as it was so the sentence reads as one.
func Line(s string) string { return escape(s, false) }

// Lines is Line for a text of several lines: its own line breaks stay.
func Lines(s string) string { return escape(s, true) }

// Unsafe says whether r is a character a terminal acts on or hides rather
// than shows: a control character (C0, DEL, C1, U+0085 among them), a
// format character (Unicode's Cf: the bidirectional controls U+200E,
// U+200F, U+202A to U+202E, U+2066 to U+2069, U+061C, the zero-width ones,
// U+FEFF), or the line and paragraph separators U+2028 and U+2029.
func Unsafe(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func escape(s string, keepNewline bool) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || Unsafe(r) && !(keepNewline && r == '\n') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[0])
		case keepNewline && r == '\n', !Unsafe(r):
			b.WriteString(s[:size])
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		s = s[size:]
	}
	return b.String()
}
