// Package showntest is the hostile text the tests of every output send
// through it, and the check that none of it came out raw.
package showntest

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Forged begins the line Hostile tries to write into a report.
const Forged = "forged: "

// Hostile is every byte value from 0x00 to 0xFF (so also each byte that is
// no UTF-8), each of them as a rune too (U+0000 to U+00FF: the C1 controls
// and Latin-1, whose U+00AD is a format character; a JSON file can carry
// those, and no byte that is no UTF-8), the Unicode line and format
// characters a terminal acts on or hides (U+0085, U+2028, U+2029, U+200E, U+200F,
// U+202A to U+202E, U+2066 to U+2069, U+061C, U+FEFF), a terminal's
// escape sequence, and a line break followed by a line of its own.
var Hostile = func() string {
	var b strings.Builder
	b.WriteString("x")
	for i := range 256 {
		b.WriteByte(byte(i))
	}
	for r := rune(0x80); r <= 0xff; r++ {
		b.WriteRune(r)
	}
	for _, r := range []rune{0x85, 0x2028, 0x2029, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x061c, 0xfeff} {
		b.WriteRune(r)
	}
	b.WriteString("\x1b[2J\x1b]0;title\x07\r\n" + Forged + "a line of its own")
	return b.String()
}()

// Raw lists each character of out that reached it raw, by offset: a byte
// that is no UTF-8, a C0 control other than the line breaks that end out's
// own lines, DEL, a C1 control, a format character (Cf), or U+2028 or
// U+2029. It is spelled out here rather than taken from package shown, so
// that a character shown forgets is found.
func Raw(out string) []string {
	var found []string
	for i, r := range out {
		_, size := utf8.DecodeRuneInString(out[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			found = append(found, fmt.Sprintf("byte %#x at %d", out[i], i))
		case r < 0x20 && r != '\n', r >= 0x7f && r <= 0x9f, unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp):
			found = append(found, fmt.Sprintf("%U at %d", r, i))
		}
	}
	return found
}

// ForgedLine says whether out has a line Hostile wrote.
func ForgedLine(out string) bool {
	for line := range strings.Lines(out) {
		if strings.HasPrefix(strings.TrimLeft(line, " "), Forged) {
			return true
		}
	}
	return false
}
