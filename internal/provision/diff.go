package provision

import (
	"fmt"
	"strings"
)

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
