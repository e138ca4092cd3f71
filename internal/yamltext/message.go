package yamltext

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// The expressions compile on first use, not at every start of the agent:
// most runs never need them, and a bounded repetition compiles to one copy
// of its body per count.
var (
	lineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^line (\d+): `) })
	// nameRe is the shape of a field name and of its typos (nodeAdress,
	// listen_port, allowed-ips): letters with word separators and no digits,
	// which random text and passwords almost always have.
	nameRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z_-]{0,31}$`) })
	// rewrites say what a message meant, in the agent's words, where the
	// parser's own wording would need the quoted text to make sense.
	rewrites = sync.OnceValue(func() []rewrite {
		return []rewrite{
			{regexp.MustCompile(`^unknown anchor '.*' referenced$`), "an alias (*name) refers to an anchor that is not defined above it (&name)"},
			{regexp.MustCompile(`^anchor '.*' value contains itself$`), "an anchor's value refers to the anchor itself"},
		}
	})
)

type rewrite struct {
	re   *regexp.Regexp
	with string
}

// Hidden replaces document text in a message.
const Hidden = "(text not shown)"

// Message splits a yaml.v3 error into its line (0 when the message has none)
// and a message without the "yaml: " prefix and without document text.
func Message(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if m := lineRe().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = strings.TrimPrefix(msg, m[0])
	}
	return line, Clean(msg)
}

// Clean is a parser message without the document text it quotes.
func Clean(msg string) string {
	for _, r := range rewrites() {
		if r.re.MatchString(msg) {
			return r.with
		}
	}
	return hideQuoted(msg)
}

// hideQuoted replaces quoted text: yaml.v3 quotes document text in '…' (an
// anchor's name), `…` (a value it could not decode) and "…" (a repeated
// key). The one-character quotes of its grammar (expected ',' or ']') carry
// no document text and stay. An unclosed quote hides the rest.
func hideQuoted(msg string) string {
	var b strings.Builder
	for {
		i := strings.IndexAny(msg, "'`\"")
		if i < 0 {
			b.WriteString(msg)
			return b.String()
		}
		b.WriteString(msg[:i])
		q := msg[i]
		end := strings.IndexByte(msg[i+1:], q)
		if end < 0 {
			b.WriteString(Hidden)
			return b.String()
		}
		inner := msg[i+1 : i+1+end]
		if q == '\'' && len(inner) == 1 {
			b.WriteString(msg[i : i+end+2])
		} else {
			b.WriteString(Hidden)
		}
		msg = msg[i+end+2:]
	}
}

// NameLike says a key may be quoted in a message: it is shaped like a field
// name. Anything else may be a value that a typo turned into a key
// (`token K10…`, `{token:K10…}`), and is not shown.
func NameLike(key string) bool { return nameRe().MatchString(key) }
