package source

import (
	"strings"
	"unicode"
)

// A document decoded out of a file (base64 on a kernel command line, on a
// boot script's kernel line, an encoded write_files content) has lines and
// columns no editor shows: a finding there names the file's line that
// carries it and the position in the decoded document (Decoded), and shows
// a short window of the decoded line (Excerpt), masked, so the column can
// be found without decoding anything by hand.

// ExcerptWidth is how many characters of a decoded line an Excerpt shows
// around the column: enough to tell one field of a flow mapping from the
// next, short enough to stay on a terminal's line.
const ExcerptWidth = 60

// Decoded says where findings' lines and columns count when they count in
// the document decoded out of the file, not in the file's text: place is
// where in the file the document is ("corium.config",
// "write_files[0].content"), line the file's line that carries it, 0 when
// no one line does. ok is false when positions count in the file itself.
func (d *Delivery) Decoded() (place string, line int, ok bool) {
	if d == nil {
		return "", 0, false
	}
	if _, _, inFile := d.Position(1, 1); inFile {
		return "", 0, false
	}
	if d.place != "" {
		return d.place, d.carrier, true
	}
	return d.Via, d.carrier, true
}

// Excerpt is a window of one line of a decoded document.
type Excerpt struct {
	// Text is at most ExcerptWidth characters of the line, with … where
	// it cuts the line, every value that could be a secret masked.
	Text string
	// Col is the 1-based character of Text a marker goes under.
	Col int
}

// Excerpt is the window of the decoded document's line around col (both
// 1-based, as a finding gives them), every value that could be a secret
// masked as a plan masks it, and every value at one of flagged, the places
// of the document's findings (schema.Tree.Masked). ok is false when there
// is none to show: positions count in the file (Decoded), the line is not
// the document's, or what could be a secret in the document is not known
// (a cloud-config, a document that does not parse). The masked text is
// made on the first call, with that call's flagged, and kept: one
// goroutine asks at a time, each time with all of the document's findings.
func (d *Delivery) Excerpt(line, col int, flagged [][2]int) (Excerpt, bool) {
	if _, _, ok := d.Decoded(); !ok || line < 1 {
		return Excerpt{}, false
	}
	if !d.maskedDone {
		d.maskedDone = true
		if t, err := d.Tree(); err == nil {
			d.masked, _ = t.Masked(d.Data, flagged...)
		}
	}
	if d.masked == nil {
		return Excerpt{}, false
	}
	text, at, ok := d.masked.Line(line, col)
	if !ok {
		return Excerpt{}, false
	}
	return window(text, at), true
}

// window cuts text to ExcerptWidth characters around at, each character
// that would not keep the marker's place (a tab, a control character)
// shown as one that does.
func window(text string, at int) Excerpt {
	r := []rune(text)
	for i, c := range r {
		switch {
		case c == '\t':
			r[i] = ' '
		case !unicode.IsPrint(c):
			r[i] = '?'
		}
	}
	if len(r) <= ExcerptWidth {
		return Excerpt{Text: string(r), Col: at}
	}
	from := min(max(at-1-ExcerptWidth/2, 0), len(r)-ExcerptWidth)
	to := from + ExcerptWidth
	var b strings.Builder
	if from > 0 {
		b.WriteString("…")
		at++
	}
	b.WriteString(string(r[from:to]))
	if to < len(r) {
		b.WriteString("…")
	}
	return Excerpt{Text: b.String(), Col: at - from}
}
