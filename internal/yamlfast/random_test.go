package yamlfast

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// Scalars chosen for how yaml.v3 resolves or scans them: numbers in every
// base and their near misses, bools and nulls in every spelling, dates,
// addresses, keys, and the characters that end or start other tokens.
var trickyPlain = []string{
	"a", "hello world", "x y  z", "true", "True", "TRUE", "tRUE", "false", "yes", "no", "on", "off", "y", "N",
	"null", "Null", "NULL", "nULL", "~", "~x", "0", "1", "-1", "+1", "-0", "+0", "010", "09", "0o10", "0o8", "0x1F", "0xG",
	"0b101", "-0b101", "-0o7", "1_000", "1__0", "_1", "1_", "1e3", "1E-3", "1e", "e1", "1.5", "1.", "0.", ".5", "-.5",
	"+.5", ".", ".inf", "-.inf", "+.Inf", ".nan", ".NaN", ".x", "2001-12-14", "2001-1-2", "2001-12-14 21:59:43.10",
	"2001-12-14t21:59:43.10-05:00", "2001-01-02T03:04:05Z", "2001-13-45", "12:30", "1:20:30", "10.10.0.2/32",
	"198.51.100.1:51820", "fd10::2/64", "controller+worker", "5dQ6wS2fC+Xk3Gm8rFz0Ib8u7uTqYH2l3WcNQp8Yx0E=",
	"+5dQ6wS2fC/Xk3Gm8rFz0Ib8u7uTqYH2l3WcNQp8Yx0E=", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
	"123456789012345678", "1234567890123456789", "http://x:1/y", "a:b", "b#c", "x?", "?x", ":b", "-b", "--b",
	"a,b", "b]", "c}", "a|b", "a>b", "a&b", "a*b", "a!b", "a%b", "a@b", "a`b", "a'b", "a\"b", "0:0", "1-2", "-1-2",
	"+", "1+1", "0x", "0o", "0b", "0b2", "1/2",
}

var trickyQuoted = []string{
	"", " ", "a", "it's", "''", "#", "a #b", "a: b", "- a", "[a]", "{a}", "true", "1", "~", "null", " lead", "trail ",
	"\\", "x\\y", "a\"b", "&a", "*a", "!a", "|", ">",
}

var trickyKeys = []string{
	"a", "b", "name", "publicKey", "a b", "1", "-1", "true", "null", "~", "a:b", "-k", "k-", "a#b", "x?", ".5",
	"2001-12-14", "10.0.0.1", "key_with_underscores", "k.e.y",
}

type docGen struct {
	r  *rand.Rand
	sb strings.Builder
}

func (g *docGen) pick(list []string) string { return list[g.r.IntN(len(list))] }

func (g *docGen) chance(n int) bool { return g.r.IntN(n) == 0 }

// plainOK reports whether s is a plain scalar yaml.v3 reads back as itself
// on one line in the given context; quoted otherwise.
func plainOK(s string, flow bool) bool {
	if s == "" || strings.TrimSpace(s) != s || strings.ContainsAny(s, "\t\n") {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	switch s[0] {
	case ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return false
	case '-':
		if flow && (len(s) < 2 || !isWord(s[1])) {
			return false
		}
	case '?', ':':
		if flow {
			return false
		}
	}
	if flow && strings.ContainsAny(s, ",[]{}?") {
		return false
	}
	return s != "<<"
}

func (g *docGen) scalar(flow bool) string {
	if !g.chance(4) {
		s := g.pick(trickyPlain)
		if plainOK(s, flow) {
			return s
		}
	}
	s := g.pick(trickyQuoted)
	if g.chance(2) || strings.ContainsAny(s, "\"\\\t") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return "\"" + s + "\""
}

func (g *docGen) key() string {
	s := g.pick(trickyKeys)
	switch {
	case g.chance(5):
		return "'" + s + "'"
	case g.chance(5):
		return "\"" + s + "\""
	}
	return s
}

func (g *docGen) flow(depth int) string {
	var sb strings.Builder
	mapping := g.chance(2)
	open, closer := "[", "]"
	if mapping {
		open, closer = "{", "}"
	}
	sb.WriteString(open)
	n := g.r.IntN(4)
	pad := ""
	if g.chance(3) {
		pad = " "
	}
	sb.WriteString(pad)
	for i := 0; i < n; i++ {
		if i > 0 {
			sb.WriteString(pad + "," + " ")
		}
		if mapping {
			sb.WriteString(g.flowKey() + ": ")
		}
		if depth < 2 && g.chance(5) {
			sb.WriteString(g.flow(depth + 1))
		} else {
			sb.WriteString(g.scalar(true))
		}
	}
	if n > 0 {
		sb.WriteString(pad)
	}
	sb.WriteString(closer)
	return sb.String()
}

func (g *docGen) flowKey() string {
	for {
		if k := g.key(); k[0] == '\'' || k[0] == '"' || plainOK(k, true) {
			return k
		}
	}
}

// lineEnd closes a content line, now and then with trailing spaces, a
// comment, or blank and comment lines after it.
func (g *docGen) lineEnd() {
	if g.chance(8) {
		g.sb.WriteString("  ")
	}
	if g.chance(8) {
		g.sb.WriteString(" # note: a, b [c]\t'd'")
	}
	g.sb.WriteString("\n")
	for g.chance(6) {
		if g.chance(2) {
			g.sb.WriteString(strings.Repeat(" ", g.r.IntN(8)))
		} else {
			g.sb.WriteString(strings.Repeat(" ", g.r.IntN(8)) + "# comment - a: b\n")
			continue
		}
		g.sb.WriteString("\n")
	}
}

func (g *docGen) inlineValue() {
	if g.chance(4) {
		g.sb.WriteString(g.flow(0))
	} else {
		g.sb.WriteString(g.scalar(false))
	}
}

// mapping writes a block mapping whose keys sit at column col; when
// inline, the cursor is already there (after "- ").
func (g *docGen) mapping(col, depth int, inline bool) {
	n := 1 + g.r.IntN(4)
	for i := 0; i < n; i++ {
		if i > 0 || !inline {
			g.sb.WriteString(strings.Repeat(" ", col))
		}
		g.sb.WriteString(g.key())
		if g.chance(10) {
			g.sb.WriteString(" ")
		}
		g.sb.WriteString(":")
		switch c := g.r.IntN(10); {
		case depth < 4 && c == 0:
			g.lineEnd()
			g.mapping(col+1+g.r.IntN(4), depth+1, false)
		case depth < 4 && c == 1:
			g.lineEnd()
			g.sequence(col+g.r.IntN(4), depth+1, false)
		case c == 2:
			g.lineEnd() // empty value
		default:
			g.sb.WriteString(strings.Repeat(" ", 1+g.r.IntN(2)))
			g.inlineValue()
			g.lineEnd()
		}
	}
}

// sequence writes a block sequence whose '-' sit at column col.
func (g *docGen) sequence(col, depth int, inline bool) {
	n := 1 + g.r.IntN(4)
	for i := 0; i < n; i++ {
		if i > 0 || !inline {
			g.sb.WriteString(strings.Repeat(" ", col))
		}
		g.sb.WriteString("-")
		gap := 1 + g.r.IntN(3)
		switch c := g.r.IntN(8); {
		case depth < 4 && c == 0:
			g.sb.WriteString(strings.Repeat(" ", gap))
			g.mapping(col+1+gap, depth+1, true)
		case depth < 4 && c == 1:
			g.sb.WriteString(strings.Repeat(" ", gap))
			g.sequence(col+1+gap, depth+1, true)
		case depth < 4 && c == 2:
			g.lineEnd()
			if g.chance(2) {
				g.mapping(col+1+g.r.IntN(3), depth+1, false)
			} else {
				g.sequence(col+1+g.r.IntN(3), depth+1, false)
			}
		default:
			g.sb.WriteString(strings.Repeat(" ", gap))
			g.inlineValue()
			g.lineEnd()
		}
	}
}

// subsetDoc returns a random document inside the subset.
func subsetDoc(r *rand.Rand) string {
	g := &docGen{r: r}
	if g.chance(4) {
		g.sb.WriteString("#cloud-config\n")
	}
	if g.chance(4) {
		g.sb.WriteString("# head\n\n")
	}
	col := 0
	if g.chance(10) {
		col = 1 + g.r.IntN(2)
	}
	if g.chance(4) {
		g.sequence(col, 0, false)
	} else {
		g.mapping(col, 0, false)
	}
	s := g.sb.String()
	if g.chance(6) {
		s = strings.TrimRight(s, "\n")
	}
	return s
}

// mutate damages a document a little, to walk the edge of the subset and
// of YAML itself.
func mutate(r *rand.Rand, s string) string {
	const bytes = "-:#'\"[]{},? \n\t&*!|>%@`ab0.~"
	b := []byte(s)
	for n := 1 + r.IntN(3); n > 0 && len(b) > 0; n-- {
		i := r.IntN(len(b))
		switch r.IntN(4) {
		case 0:
			b = append(b[:i], b[i+1:]...)
		case 1:
			b = append(b[:i], append([]byte{bytes[r.IntN(len(bytes))]}, b[i:]...)...)
		case 2:
			b[i] = bytes[r.IntN(len(bytes))]
		case 3:
			b = append(b[:i], append([]byte(" "), b[i:]...)...)
		}
	}
	return string(b)
}

// TestGeneratedDocuments: generated subset documents are accepted and
// equal yaml.v3's trees; damaged ones are either declined or still equal.
func TestGeneratedDocuments(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 20))
	mutatedOK := 0
	const n = 4000
	for i := 0; i < n; i++ {
		doc := subsetDoc(r)
		if !check(t, "generated", []byte(doc)) {
			t.Fatalf("generated subset document declined:\n%s", doc)
		}
		if check(t, "mutated", []byte(mutate(r, doc))) {
			mutatedOK++
		}
	}
	t.Logf("%d generated documents accepted; %d of %d damaged ones accepted (and equal)", n, mutatedOK, n)
}
