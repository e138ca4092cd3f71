package bootstrap

import (
	"fmt"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"
)

// diffContext is the unchanged lines shown either side of a change.
const diffContext = 2

// unifiedDiff is a line diff of a and b: "- " for lines only in a, "+ " for
// lines only in b, "  " for context, "@@" between hunks. Myers' algorithm in
// linear space (the Go team's, through go-udiff): a wg-quick file of 6,000
// peers is 36,000 lines, and a table of every pair of its lines, old against
// new, would not fit in memory.
func unifiedDiff(a, b string) (string, error) {
	u, err := udiff.ToUnifiedDiff("", "", a, lineEdits(a, b), diffContext)
	if err != nil {
		return "", fmt.Errorf("diffing: %w", err)
	}
	var out strings.Builder
	for i, h := range u.Hunks {
		if i > 0 {
			out.WriteString("@@\n")
		}
		for _, l := range h.Lines {
			out.WriteString(diffPrefix[l.Kind])
			out.WriteString(strings.TrimSuffix(l.Content, "\n"))
			out.WriteString("\n")
			if !strings.HasSuffix(l.Content, "\n") {
				out.WriteString("\\ No newline at end of file\n")
			}
		}
	}
	return out.String(), nil
}

var diffPrefix = map[udiff.OpKind]string{udiff.Delete: "- ", udiff.Insert: "+ ", udiff.Equal: "  "}

// lineEdits are the line edits from a to b. go-udiff's search stops after
// about a hundred changed lines and replaces everything between the changes
// it found first and last, which in a file of thousands of peers where a
// few hundred change reads as every peer dropped and added again; so each
// replacement is searched again until it holds no common line. The lines
// are split once and every edit's text is a slice of b: the search holds
// no copy of either file, however deep it goes.
func lineEdits(a, b string) []udiff.Edit {
	x, y := splitLines(a), splitLines(b)
	ax, by := lineOffsets(x), lineOffsets(y)
	var out []udiff.Edit
	var search func(i, m, j, n int)
	search = func(i, m, j, n int) {
		ds := lcs.DiffLines(x[i:m], y[j:n])
		whole := len(ds) == 1 && ds[0] == lcs.Diff{Start: 0, End: m - i, ReplStart: 0, ReplEnd: n - j}
		for _, d := range ds {
			if whole || d.Start == d.End || d.ReplStart == d.ReplEnd {
				out = append(out, udiff.Edit{Start: ax[i+d.Start], End: ax[i+d.End], New: b[by[j+d.ReplStart]:by[j+d.ReplEnd]]})
				continue
			}
			search(i+d.Start, i+d.End, j+d.ReplStart, j+d.ReplEnd)
		}
	}
	search(0, len(x), 0, len(y))
	return out
}

// splitLines is s as lines that keep their "\n", as go-udiff splits them.
func splitLines(s string) []string {
	l := strings.SplitAfter(s, "\n")
	if l[len(l)-1] == "" {
		l = l[:len(l)-1]
	}
	return l
}

// lineOffsets are where each line starts, and the end.
func lineOffsets(lines []string) []int {
	o := make([]int, len(lines)+1)
	for i, l := range lines {
		o[i+1] = o[i] + len(l)
	}
	return o
}
