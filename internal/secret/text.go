package secret

import (
	"math"
	"slices"
	"strings"
)

// Text is a document's text as a person is shown it, with the runs its
// maskers found to hold a secret: the one place text gets the marker, so
// a finding's window, a plan's k0s.yaml and diff, and a wg-quick tool's
// error all show one marker the same way. Its lines are yaml.v3's: a text
// splits at "\n" only, a "\r" before it belonging to the break. The
// schema refuses a lone CR, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR,
// which YAML also counts as breaks, so a line and column yaml.v3 gives
// for a node is a line and column here. A caller strips a byte order
// mark first when it wants yaml.v3's columns (yaml.v3 counts none for
// it).
//
// Text knows where a secret is only from its callers (a YAML tree's
// nodes, a line holding a known value); it parses nothing.
type Text struct {
	lines []string // as written, a "\r" before the break kept
	// spans are the masked runs of each line (0-based).
	spans map[int][]span
	// keyed are the lines shown as their key and the marker, and dropped
	// those left out, the rest of a value shown that way.
	keyed   map[int]string
	dropped map[int]bool
}

// Pos is a place in a Text: 0-based line and rune column.
type Pos struct{ Line, Col int }

// Before says whether p comes before q.
func (p Pos) Before(q Pos) bool {
	return p.Line < q.Line || (p.Line == q.Line && p.Col < q.Col)
}

// span is a run of a line's runes, [from, to) (to -1: to the line's
// end), and what stands for it: the marker when whole, else shown (a URL
// with what grants access taken out).
type span struct {
	from, to int
	whole    bool
	shown    string
}

// NewText is text in yaml.v3's line model, nothing masked.
func NewText(text string) *Text {
	return &Text{lines: strings.Split(text, "\n"), spans: map[int][]span{}, keyed: map[int]string{}, dropped: map[int]bool{}}
}

// Len is how many lines t has.
func (t *Text) Len() int { return len(t.lines) }

// At is line i (0-based) as written, without its break's "\r".
func (t *Text) At(i int) string { return strings.TrimSuffix(t.lines[i], "\r") }

// Mask hides the runes from..to (to excluded): the first line's run
// shows the marker, and each line after it that the run goes on in shows
// the marker after its indentation, so neither a line of the value nor
// how it is spelt shows.
func (t *Text) Mask(from, to Pos) { t.add(from, to, span{whole: true}) }

// MaskURL hides from..to, the text of the URL raw, showing it as
// RedactURL does on its first line: scheme, host and path, and the
// marker for what grants access.
func (t *Text) MaskURL(from, to Pos, raw string) { t.add(from, to, span{shown: RedactURL(raw)}) }

func (t *Text) add(from, to Pos, first span) {
	if !from.Before(to) || from.Line < 0 || to.Line >= len(t.lines) {
		return
	}
	first.from, first.to = from.Col, to.Col
	if from.Line != to.Line {
		first.to = -1
	}
	t.spans[from.Line] = append(t.spans[from.Line], first)
	for l := from.Line + 1; l <= to.Line; l++ {
		line := t.At(l)
		indent := len([]rune(line)) - len([]rune(strings.TrimLeft(line, " \t")))
		end := -1
		if l == to.Line {
			end = to.Col
		}
		if end < 0 || indent < end {
			t.spans[l] = append(t.spans[l], span{from: indent, to: end, whole: true})
		}
	}
}

// HideValue shows line (0-based) as prefix, the line up to its key's
// separator, and the marker, and leaves out the lines after it up to
// last, the rest of the value: a value spanning lines shows as one line,
// and how many it took is not told. Of two values hidden on one line (a
// flow mapping), the one whose key comes first ends the line: the other's
// prefix would show the first value.
func (t *Text) HideValue(line int, prefix string, last int) {
	if line < 0 || line >= len(t.lines) || t.dropped[line] {
		return
	}
	shown := prefix + " " + Redacted
	if old, ok := t.keyed[line]; !ok || len(shown) < len(old) {
		t.keyed[line] = shown
	}
	for i := line + 1; i <= last && i < len(t.lines); i++ {
		t.dropped[i] = true
		delete(t.keyed, i)
	}
}

// String is the text with every hidden value and masked run shown as
// masked, lines as written otherwise.
func (t *Text) String() string {
	out := make([]string, 0, len(t.lines))
	for i, l := range t.lines {
		switch {
		case t.dropped[i]:
		case t.keyed[i] != "":
			out = append(out, t.keyed[i])
		case len(t.spans[i]) > 0:
			s, _ := t.line(i, 0)
			out = append(out, s)
		default:
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// Line is line n (1-based) with its masked runs shown masked, and col, a
// 1-based column of the line as written, where it stands in the shown
// line (at the start of what stands for a masked run it falls in). ok is
// false past the text.
func (t *Text) Line(n, col int) (text string, at int, ok bool) {
	if t == nil || n < 1 || n > len(t.lines) {
		return "", 0, false
	}
	text, at = t.line(n-1, max(col-1, 0))
	return text, at + 1, true
}

func (t *Text) line(i, c int) (string, int) {
	r := []rune(t.At(i))
	var b strings.Builder
	shown, at := 0, -1
	keep := func(from, to int) {
		if at < 0 && c >= from && c < to {
			at = shown + c - from
		}
		b.WriteString(string(r[from:to]))
		shown += to - from
	}
	next := 0
	for _, s := range merged(t.spans[i]) {
		from, to := min(s.from, len(r)), s.to
		if to < 0 || to > len(r) {
			to = len(r)
		}
		if from < next {
			continue
		}
		keep(next, from)
		if at < 0 && c >= from && c < to {
			at = shown
		}
		with := s.shown
		if s.whole {
			with = Redacted
		}
		b.WriteString(with)
		shown += len([]rune(with))
		next = to
	}
	keep(next, len(r))
	if at < 0 {
		at = shown + c - len(r) // past the line's end, as a parser may point
	}
	return b.String(), at
}

// merged is a line's spans in order, those that overlap made one, which
// is whole when either was.
func merged(ss []span) []span {
	end := func(s span) int {
		if s.to < 0 {
			return math.MaxInt
		}
		return s.to
	}
	ss = slices.Clone(ss)
	slices.SortStableFunc(ss, func(a, b span) int { return a.from - b.from })
	out := ss[:0]
	for _, s := range ss {
		if k := len(out) - 1; k >= 0 && s.from < end(out[k]) {
			if end(s) > end(out[k]) {
				out[k].to = s.to
			}
			out[k].whole = out[k].whole || s.whole
			continue
		}
		out = append(out, s)
	}
	return out
}

// Whole is a text hidden as a whole: one where a secret is, or may be,
// that no mask can place.
func Whole() string { return Redacted + "\n" }

// MaskValues is s with every occurrence of each of values replaced by the
// marker: the last belt, for text no model places a secret in (a tool's
// output quoting a line of a file it read, a plan's file). The longer
// values go first: a secret that holds another (a value and one of its
// lines) would otherwise show what is left of it around the marker.
func MaskValues(s string, values []string) string {
	values = slices.Clone(values)
	slices.SortStableFunc(values, func(a, b string) int { return len(b) - len(a) })
	for _, v := range values {
		if v != "" {
			s = strings.ReplaceAll(s, v, Redacted)
		}
	}
	return s
}
