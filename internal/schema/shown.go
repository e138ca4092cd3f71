package schema

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/yamltext"
)

// What a message may quote of the document. A finding goes to the journal and
// to /run/corium/status.json, and the text it would quote is the text that is
// wrong, which is where a secret lands when it is pasted into the wrong place
// or a typo turns a value into a key (`token K10…`, `{token:K10…}`). So a key
// or an enum value is quoted only when it looks like what it should be; the
// position (line:col) still leads the operator to the spot.

// enumValueRe is the shape of an enum's values (controller+worker,
// NoSchedule) and of their typos.
var enumValueRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z][A-Za-z+_-]{0,23}$`) })

// looksLikeFieldName is a key a message may quote: one of the contract's
// own field names (k0s has a digit), or one shaped like them.
func looksLikeFieldName(s string) bool { return fieldNames()[s] || yamltext.NameLike(s) }

// fieldNames are the yaml names of every field of the contract.
var fieldNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			if name := yamlName(t.Field(i)); name != "" {
				names[name] = true
				walk(t.Field(i).Type)
			}
		}
	}
	walk(reflect.TypeOf(Config{}))
	return names
})

func looksLikeEnumValue(s string) bool { return enumValueRe().MatchString(s) }

// labelKeyRe is the alphabet of Kubernetes label keys, valid or not. Both
// expressions compile on first use, when a finding is shown: {1,253}
// compiles to 253 copies, a millisecond at every start of the agent.
var labelKeyRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9._/-]{1,253}$`) })

// looksLikeLabelKey is a free-form key that may be quoted: written in the
// alphabet of label keys (topology.kubernetes.io/zone, also a wrong one such
// as -bad/key), with no word that is a long run of mixed-case letters and
// digits, the shape of a key or a token.
func looksLikeLabelKey(s string) bool {
	if !labelKeyRe().MatchString(s) {
		return false
	}
	for _, word := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune("./-_", r) }) {
		if len(word) >= 12 && randomLooking(word) {
			return false
		}
	}
	return true
}

// randomLooking says a word mixes upper case, lower case and digits, as
// base64 and generated secrets do and names do not; or letters of one case
// and digits over 16 characters, as a join token's secret half does
// (abcdef.0123456789abcdef, [a-z0-9]{16}).
func randomLooking(w string) bool {
	var upper, lower, digit bool
	for _, r := range w {
		upper = upper || unicode.IsUpper(r)
		lower = lower || unicode.IsLower(r)
		digit = digit || unicode.IsDigit(r)
	}
	return upper && lower && digit || (upper || lower) && digit && len(w) >= 16
}

// hiddenKey stands for a key a message does not quote.
const hiddenKey = "<key>"

// shownPath is path as a finding may print it: every field segment that does
// not look like a field name and every free-form key that does not look like
// a label key is replaced by <key>. The real path stays with the finding for
// positions and for telling which fields failed to decode.
func shownPath(path string) string {
	var b strings.Builder
	for path != "" {
		switch {
		case strings.HasPrefix(path, `["`):
			quoted, err := strconv.QuotedPrefix(path[1:])
			if err != nil || !strings.HasPrefix(path[1+len(quoted):], "]") {
				b.WriteString("[" + hiddenKey + "]")
				return b.String()
			}
			key, _ := strconv.Unquote(quoted)
			if looksLikeLabelKey(key) {
				b.WriteString(finding.Path("").Key(key).String())
			} else {
				b.WriteString("[" + hiddenKey + "]")
			}
			path = path[len(quoted)+2:]
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				b.WriteString("[" + hiddenKey + "]")
				return b.String()
			}
			b.WriteString(path[:end+1])
			path = path[end+1:]
		default:
			if path[0] == '.' {
				b.WriteByte('.')
				path = path[1:]
			}
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			name := strings.TrimSuffix(path[:end], keySuffix)
			if looksLikeFieldName(name) {
				b.WriteString(name)
			} else {
				b.WriteString(hiddenKey)
			}
			path = path[end:]
		}
	}
	return b.String()
}

// unknownKeyMessage explains an unknown key without quoting one that may
// hold a value. A key that begins with a field name and goes on with a
// space, ':' or '=' is that field with its value glued on (a missing colon
// or space), the typo that most often puts a secret into a key.
func unknownKeyMessage(atTop bool, key string, names []string) string {
	if looksLikeFieldName(key) {
		return unknownKey(atTop, key, names)
	}
	if head, _, ok := cutGlued(key); ok {
		known := suggest(head, names)
		if known == "" && fieldNames()[head] {
			known = head // a field of another mapping, but a field name
		}
		if known != "" {
			return "unknown key, not shown: it begins with " + strconv.Quote(known) +
				" and goes on with what may be its value; write \"" + known + ": VALUE\", with a colon and a space between them"
		}
	}
	return "unknown key, not shown (it does not look like a field name and may hold a value); known keys here: " + strings.Join(names, ", ")
}

// cutGlued splits a key at the first space, ':' or '=' after a word.
func cutGlued(key string) (head, rest string, ok bool) {
	i := strings.IndexAny(key, " \t:=")
	if i <= 0 || !looksLikeFieldName(key[:i]) {
		return "", "", false
	}
	return key[:i], key[i+1:], true
}
