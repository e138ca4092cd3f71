package provision

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"

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
