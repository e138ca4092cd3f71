package provision

import (
	"fmt"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/secret"
)

// secretMask hides a file's secrets for a plan, on both sides of a diff.
// Lines whose key is one of keys are masked whatever they hold, so a value
// found only in the file on disk (a peer the new config drops) is hidden as
// well as the new one; any other line that holds a known secret value (an
// inline secret, a placeholder) is masked too, and if such a line has no key
// the whole file is secret.
type secretMask struct {
	keys   []string
	values []string
}

// mask returns text with its secret lines as "KEY [redacted]"; whole is true
// when the file must be hidden as a whole.
func (m secretMask) mask(text string) (masked string, whole bool) {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		k, name, hasKey := lineKey(l)
		switch {
		case hasKey && slices.Contains(m.keys, name):
			lines[i] = k + " " + secret.Redacted
		case containsAny(l, m.values) && hasKey:
			lines[i] = k + " " + secret.Redacted
		case containsAny(l, m.values):
			return secret.Redacted + "\n", true
		}
	}
	return strings.Join(lines, "\n"), false
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

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// unifiedDiff is a line diff of a and b with two lines of context, "-" for
// lines only in a, "+" for lines only in b. Files here are small, so the
// quadratic longest-common-subsequence table is fine.
func unifiedDiff(a, b string) string {
	x, y := splitLines(a), splitLines(b)
	n, m := len(x), len(y)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type op struct {
		kind byte
		text string
	}
	var ops []op
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && x[i] == y[j]:
			ops = append(ops, op{' ', x[i]})
			i, j = i+1, j+1
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', x[i]})
			i++
		default:
			ops = append(ops, op{'+', y[j]})
			j++
		}
	}
	const context = 2
	var out strings.Builder
	lastShown := -1
	for k, o := range ops {
		if o.kind == ' ' && !nearChange(ops, k, context, func(i int) bool { return ops[i].kind != ' ' }) {
			continue
		}
		if lastShown >= 0 && k > lastShown+1 {
			out.WriteString("@@\n")
		}
		fmt.Fprintf(&out, "%c %s\n", o.kind, o.text)
		lastShown = k
	}
	return out.String()
}

func nearChange[T any](ops []T, k, context int, changed func(int) bool) bool {
	for d := -context; d <= context; d++ {
		if i := k + d; i >= 0 && i < len(ops) && changed(i) {
			return true
		}
	}
	return false
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
