package yamltext

import "strings"

// Elided stands for document text a shown line leaves out.
const Elided = "…"

// ShownLine is a line of a broken document as a message may show it: its
// indentation, the keys shaped like field names, and YAML's punctuation
// (- : [ ] { } , | > and the opening of a quote, an anchor, an alias or a
// tag) stay; every other run of text, every value and comment included, is
// elided. A line the parser could not read may hold anything, a private key
// under a misspelt key or a password where a name belongs, and the shape is
// what shows where the syntax went wrong.
func ShownLine(line string) string {
	line = strings.TrimRight(strings.TrimPrefix(line, "\ufeff"), "\r\n")
	var b strings.Builder
	for i := 0; i < len(line); {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || strings.IndexByte(flowIndicators, c) >= 0:
			b.WriteByte(c)
			i++
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			b.WriteString("#" + Elided)
			return b.String()
		case c == '"' || c == '\'':
			end := ClosingQuote(line, i)
			b.WriteString(string(c) + Elided)
			if end < 0 {
				return b.String()
			}
			b.WriteByte(c)
			i = end + 1
		default:
			end := i
			for end < len(line) && !strings.ContainsRune(" \t"+flowIndicators, rune(line[end])) {
				end++
			}
			b.WriteString(shownWord(line[i:end]))
			i = end
		}
	}
	return b.String()
}

const flowIndicators = ",[]{}"

// ClosingQuote is the index of the quote that closes the one at i, -1 when
// the line does not close it: a double-quoted scalar escapes with a
// backslash, a single-quoted one doubles the quote.
func ClosingQuote(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch {
		case q == '"' && line[j] == '\\':
			j++
		case line[j] == q && q == '\'' && j+1 < len(line) && line[j+1] == '\'':
			j++
		case line[j] == q:
			return j
		}
	}
	return -1
}

// ClosingBracket is the index of the bracket that closes the one text
// starts with, past quoted scalars; -1 when text does not start with one or
// its line does not close it before its end or a comment.
func ClosingBracket(text string) int {
	if text == "" || (text[0] != '{' && text[0] != '[') {
		return -1
	}
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i
			}
		case '#':
			if strings.ContainsRune(" \t", rune(text[i-1])) {
				return -1 // a comment: what closes the bracket is on a line below
			}
		case '"', '\'':
			if !strings.ContainsRune(" \t{[,:", rune(text[i-1])) {
				continue // a quote inside a plain scalar
			}
			if i = ClosingQuote(text, i); i < 0 {
				return -1
			}
		}
	}
	return -1
}

// SkipProperties is text, a value as written, after the properties it
// starts with (an anchor &name, a tag !!str), and the blanks after each:
// where the value's own text starts, a quote for a quoted scalar. It is ""
// when nothing follows them on the line.
func SkipProperties(text string) string {
	for len(text) > 0 && (text[0] == '&' || text[0] == '!') {
		word, _, _ := strings.Cut(text, " ")
		text = strings.TrimLeft(text[len(word):], " ")
	}
	return text
}

// shownWord is one run of text between blanks and flow indicators.
func shownWord(w string) string {
	switch {
	case strings.Trim(w, "-?:|>+") == "":
		return w // punctuation: a sequence entry, a block scalar indicator, ...
	case strings.HasSuffix(w, ":") && NameLike(strings.TrimSuffix(w, ":")):
		return w
	case strings.HasSuffix(w, ":"):
		return Elided + ":"
	case w[0] == '&' || w[0] == '*' || w[0] == '!':
		return w[:1] + Elided
	}
	return Elided
}
