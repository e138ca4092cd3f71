package shown

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// JSON is a document encoding/json wrote, with every control and format
// character (Unsafe) it left raw written as a \u escape: encoding/json
// escapes C0 and, by default, U+2028 and U+2029 (and < > &), but leaves
// DEL, C1 and the format characters (the bidirectional controls among
// them) as they are, for a terminal to act on when the document is
// printed. A decoder reads the same values back: outside a string a JSON
// document holds ASCII whitespace and punctuation only, so every such
// character is inside a string, where \u is its spelling. C0 is not
// touched: encoding/json escapes it inside strings, and outside them it
// is the document's own line breaks and indentation.
func JSON(b []byte) []byte {
	i := 0
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if r >= 0x7f && (Unsafe(r) || r == utf8.RuneError && size == 1) {
			break
		}
		i += size
	}
	if i == len(b) {
		return b
	}
	var out strings.Builder
	out.Write(b[:i])
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			// Not encoding/json's: it writes U+FFFD for such a byte.
			out.WriteString(`\ufffd`)
		case r >= 0x7f && Unsafe(r):
			if r > 0xffff {
				hi, lo := utf16.EncodeRune(r)
				fmt.Fprintf(&out, `\u%04x\u%04x`, hi, lo)
			} else {
				fmt.Fprintf(&out, `\u%04x`, r)
			}
		default:
			out.Write(b[i : i+size])
		}
		i += size
	}
	return []byte(out.String())
}
