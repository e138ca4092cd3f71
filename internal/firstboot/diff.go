package firstboot

import (
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/secret"
)

// maskSecretLines hides the secret values of a file for a plan. Lines of
// next holding a placeholder become "KEY [redacted]"; lines of old with a
// key that was masked in next are masked the same way, since they hold the
// real value on disk. A placeholder on a line without a key (a token file)
// masks the whole file. ok is false when everything was masked.
func maskSecretLines(old, next string, placeholders []string) (string, string, bool) {
	keys := map[string]bool{}
	newLines := strings.Split(next, "\n")
	for i, l := range newLines {
		if !containsAny(l, placeholders) {
			continue
		}
		k, ok := lineKey(l)
		if !ok {
			return secret.Redacted + "\n", secret.Redacted + "\n", false
		}
		keys[k] = true
		newLines[i] = k + " " + secret.Redacted
	}
	oldLines := strings.Split(old, "\n")
	for i, l := range oldLines {
		if k, ok := lineKey(l); ok && keys[k] {
			oldLines[i] = k + " " + secret.Redacted
		}
	}
	return strings.Join(oldLines, "\n"), strings.Join(newLines, "\n"), true
}

// lineKey is a line up to and including its first ":" or "=" (YAML and
// INI-style files), whitespace kept so the masked line still lines up.
func lineKey(l string) (string, bool) {
	i := strings.IndexAny(l, ":=")
	if i <= 0 || strings.TrimSpace(l[:i]) == "" {
		return "", false
	}
	return l[:i+1], true
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
