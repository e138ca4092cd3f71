package bootstrap

import (
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/yamltext"
)

// secretMask hides the secrets of a file for a plan, on both sides of a
// diff. Masking is by value: values holds every spelling of every secret
// the plan knows (see knownSecrets: the inline and placeholder ones and
// those read out of the Secret files on disk and in the render), and a line
// holding one is masked in every file, as the key it is the value of, or
// the file is secret as a whole when no key holds it.
//
// keys, a Secret file's SecretKeys, are a belt under that: the line of such
// a key is masked whatever it holds. The values read out of a file cover
// only what its syntax shows as a secret's value; a `password:` inside
// text a k0s.patch embeds (a helm chart's values block), or in a comment,
// is a value nothing resolved and no parser found, and only its key gives
// it away.
type secretMask struct {
	keys   []string
	values []string
}

// mask returns text with its secret lines as "KEY [redacted]" and the
// lines that continue the key's value left out (secret.Text.HideValue), so
// a value spanning lines shows as one masked line whatever its spelling,
// and how many lines it takes is not told either. A line without a key
// that holds a secret (a block scalar's line, a list item) masks the
// nearest key whose value it is part of; whole is true when there is none
// and the file must be hidden as a whole.
func (m secretMask) mask(text string) (masked string, whole bool) {
	t := secret.NewText(text)
	lines := make([]string, t.Len())
	for i := range lines {
		lines[i] = t.At(i)
	}
	var kept []int // the key lines kept as they are, innermost last
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		k, name, hasKey := lineKey(l)
		switch {
		case hasKey && (isSecretKey(m.keys, name) || containsAny(l, m.values)):
			end := valueEnd(lines, i, k)
			t.HideValue(i, k, end)
			i = end
		case hasKey:
			kept = append(kept, i)
		case containsAny(l, m.values):
			for len(kept) > 0 && valueEnd(lines, kept[len(kept)-1], keyPrefix(lines[kept[len(kept)-1]])) < i {
				kept = kept[:len(kept)-1]
			}
			if len(kept) == 0 {
				return secret.Whole(), true
			}
			owner := kept[len(kept)-1]
			kept = kept[:len(kept)-1]
			k := keyPrefix(lines[owner])
			end := valueEnd(lines, owner, k)
			t.HideValue(owner, k, end) // the lines since owner go with it
			i = end
		}
	}
	return t.String(), false
}

// isSecretKey says whether name is one of keys in any case: k0s reads its
// ClusterConfig with encoding/json, which takes a key in any case
// (`Password:` sets a helm repository's password; see k0s/rules' schema),
// so a key spelled so is as secret as its canonical spelling.
func isSecretKey(keys []string, name string) bool {
	return slices.ContainsFunc(keys, func(k string) bool { return strings.EqualFold(k, name) })
}

// lineKey is a line up to and including its first ":" or "=" (YAML and
// INI-style files), whitespace kept so the masked line still lines up, and
// the key's bare name (no indentation, no list dash).
func lineKey(l string) (prefix, name string, ok bool) {
	i := strings.IndexAny(l, ":=")
	if i <= 0 {
		return "", "", false
	}
	name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l[:i]), "- "))
	if name == "" {
		return "", "", false
	}
	return l[:i+1], name, true
}

func keyPrefix(l string) string {
	k, _, _ := lineKey(l)
	return k
}

// valueEnd is the last line of the value whose key is on line i (prefix
// being the line up to the key's separator). YAML continues a quoted
// scalar to its closing quote, whatever the lines' indentation; any other
// value (a block scalar, a plain scalar folded over lines, a mapping or a
// list) on the lines indented deeper than its key, and a key with nothing
// after it may hold a list at its own indentation. Blank lines inside the
// value are part of it; those after it are not. In an INI file nothing is
// indented deeper than a key, and the value is its one line.
func valueEnd(lines []string, i int, prefix string) int {
	after := lines[i][len(prefix):]
	if q, rest, ok := openQuote(after); ok {
		for j := i; j < len(lines); j++ {
			if j > i {
				rest = lines[j]
			}
			if closesQuote(rest, q) {
				return j
			}
		}
		return len(lines) - 1
	}
	keyCol := len(prefix) - len(strings.TrimLeft(prefix, " -"))
	bare := strings.TrimSpace(after) == ""
	end := i
	for j := i + 1; j < len(lines); j++ {
		l := lines[j]
		rest := strings.TrimLeft(l, " ")
		indent := len(l) - len(rest)
		switch {
		case rest == "":
		case indent > keyCol, bare && indent == keyCol && strings.HasPrefix(rest, "-"):
			end = j
		default:
			return end
		}
	}
	return end
}

// openQuote says whether a value starts with a quote, after any anchor or
// tag, and which, with the text after it.
func openQuote(v string) (q byte, rest string, ok bool) {
	v = yamltext.SkipProperties(strings.TrimLeft(v, " "))
	if v != "" && (v[0] == '"' || v[0] == '\'') {
		return v[0], v[1:], true
	}
	return 0, "", false
}

// closesQuote says whether s, the text after the quote q opening a scalar
// or a line it goes on in, holds the quote closing it.
func closesQuote(s string, q byte) bool {
	return yamltext.ClosingQuote(string(q)+s, 0) >= 0
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
