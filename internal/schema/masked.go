package schema

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/yamltext"
)

// Masked is a document's text as a finding may show a line of it, every
// value that could be a secret replaced as a plan shows it, placed by the
// tree's nodes, so a secret inside a flow mapping is masked and the rest
// of its line kept. Masked, by the contract's types: each secret field's
// value (token, privateKey, presharedKey, authPass) and the anchored value
// an alias there names; under a key the contract does not know, its value
// (a secret under a misspelt or miscased name) and the key too unless it
// is shaped like a field name (a secret pasted where a key goes); a value
// of another kind than its field takes, whole; in the free-form maps a
// plan shows (node.labels, k0s.patch), what a plan masks in k0s.yaml
// (authPass, dataSource, password, at any depth and in any case); and every
// URL carrying what a plan takes out of one (userinfo, a query, a
// fragment), shown as a plan shows it (secret.RedactURL). Comments are
// shown, as a plan shows k0s.yaml's.
type Masked struct {
	lines []string
	// spans are the masked runs of each line (0-based), in order.
	spans map[int][]maskSpan
}

// maskSpan is a run of a line's characters, [from, to) counted in runes (to
// -1: to the line's end), and what stands for it.
type maskSpan struct {
	from, to int
	with     string
}

// pos is a place in the text: 0-based line and rune column.
type pos struct{ line, col int }

func (p pos) before(q pos) bool {
	return p.line < q.line || (p.line == q.line && p.col < q.col)
}

// Masked is the tree's text, data, masked; ok is false for a cloud-config,
// whose other keys (chpasswd's, users', write_files') hold secrets the
// contract does not know, and for a document with no YAML in it. flagged
// are the places (1-based line and column) of the document's findings: the
// value a finding points at, or whose key it points at, is masked too,
// whatever its field: a value the rules refuse may be a secret in the
// wrong field (a password as cluster.name, a private key as publicKey), and
// no message quotes one, so neither does the line shown under it.
func (t *Tree) Masked(data []byte, flagged ...[2]int) (m *Masked, ok bool) {
	if t == nil || t.CloudConfig || t.root == nil {
		return nil, false
	}
	// yaml.v3 counts no column for a byte order mark.
	lines := strings.Split(strings.TrimPrefix(string(data), "\ufeff"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	m = &Masked{lines: lines, spans: map[int][]maskSpan{}}
	w := maskWalk{m: m, keys: maskedKeys()}
	w.index(t.root)
	slices.SortFunc(w.starts, func(a, b pos) int {
		if a.before(b) {
			return -1
		}
		if b.before(a) {
			return 1
		}
		return 0
	})
	if len(t.root.Content) > 0 {
		w.typed(t.root.Content[0], reflect.TypeFor[Config]())
	}
	if len(flagged) > 0 {
		at := map[pos]bool{}
		for _, f := range flagged {
			at[pos{f[0] - 1, f[1] - 1}] = true
		}
		w.flagged(t.root, at)
	}
	for l, ss := range m.spans {
		m.spans[l] = merged(ss)
	}
	return m, true
}

// Line is line n (1-based) masked, and col, a 1-based column of the
// line as written, where it stands in the masked line (at the start of
// what stands for a masked run it falls in). ok is false past the text.
func (m *Masked) Line(n, col int) (text string, at int, ok bool) {
	if m == nil || n < 1 || n > len(m.lines) {
		return "", 0, false
	}
	r := []rune(m.lines[n-1])
	c := max(col-1, 0)
	var b strings.Builder
	shown, at := 0, -1
	keep := func(from, to int) {
		if at < 0 && c >= from && c < to {
			at = shown + c - from
		}
		b.WriteString(string(r[from:to]))
		shown += to - from
	}
	i := 0
	for _, s := range m.spans[n-1] {
		from, to := min(s.from, len(r)), s.to
		if to < 0 || to > len(r) {
			to = len(r)
		}
		if from < i {
			continue
		}
		keep(i, from)
		if at < 0 && c >= from && c < to {
			at = shown
		}
		b.WriteString(s.with)
		shown += len([]rune(s.with))
		i = to
	}
	keep(i, len(r))
	if at < 0 {
		at = shown + c - len(r) // past the line's end, as a parser may point
	}
	return b.String(), at + 1, true
}

// maskedKeys are the keys whose values Masked masks, lowercased: the
// contract's inline secret fields' names and what a plan masks in
// k0s.yaml.
var maskedKeys = sync.OnceValue(func() map[string]bool {
	keys := map[string]bool{}
	for _, p := range secret.Paths(reflect.TypeFor[Config](), "yaml") {
		if t := p.Type; t == reflect.TypeFor[secret.Value]() || t == reflect.TypeFor[*secret.Value]() {
			keys[strings.ToLower(p.Names[len(p.Names)-1])] = true
		}
	}
	for _, k := range k0syaml.SecretKeys() {
		keys[strings.ToLower(k)] = true
	}
	return keys
})

// maskWalk finds the masked values of one text.
type maskWalk struct {
	m    *Masked
	keys map[string]bool
	// starts are where every node of the text starts, sorted: a value
	// whose end the text does not show runs up to the next one.
	starts []pos
}

func start(n *yaml.Node) pos { return pos{n.Line - 1, n.Column - 1} }

// index lists where each node starts; an alias is its own node, the one
// it names is indexed where it is anchored.
func (w *maskWalk) index(n *yaml.Node) {
	if n.Line > 0 {
		w.starts = append(w.starts, start(n))
	}
	for _, c := range n.Content {
		w.index(c)
	}
}

// typed masks below n, which the contract reads as t: a secret field's
// value; under a key the contract does not know, the value, which may be
// a secret under a misspelt name, and the key itself when it is not shaped
// like a field name (a secret pasted where a key goes: the rule messages
// keep, yamltext.NameLike); a value of another kind than t takes (a word
// where a mapping goes) whole; and a URL with credentials anywhere. A
// free-form map (node.labels, k0s.patch) is shown as a plan shows it
// (free). An alias is walked where its anchor stands.
func (w *maskWalk) typed(n *yaml.Node, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"):
	case t == valueType:
		w.mask(n, secret.Redacted)
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			w.mask(resolveAlias(n), secret.Redacted)
		}
	case n.Kind == yaml.AliasNode:
	case t == anyMapType || t.Kind() == reflect.Map:
		w.free(n)
	case t == addressType:
		w.typed(n, reflect.TypeFor[[]string]())
	case t.Kind() == reflect.Struct && n.Kind == yaml.MappingNode:
		fields := structFields(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			name := resolveAlias(k)
			if isMergeKey(name) {
				w.merged(v, t)
				continue
			}
			if f, ok := fields.byName[name.Value]; ok && name.Kind == yaml.ScalarNode {
				w.typed(v, t.Field(f).Type)
				continue
			}
			if name.Kind != yaml.ScalarNode || !yamltext.NameLike(name.Value) {
				w.mask(k, secret.Redacted)
			}
			w.mask(v, secret.Redacted)
		}
	case t.Kind() == reflect.Slice && n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			w.typed(c, t.Elem())
		}
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Struct && n.Kind == yaml.ScalarNode:
		w.typed(n, t.Elem()) // one value for a list of words (AddressList)
	case n.Kind == yaml.ScalarNode && t.Kind() != reflect.Struct && t.Kind() != reflect.Slice:
		w.url(n)
	default:
		w.mask(n, secret.Redacted)
	}
}

// flagged masks, below n, each value that starts at a place in at, or
// whose key does: a scalar or an alias whole (a URL with credentials stays
// as a plan shows it, its credentials out); a mapping or a list is left to
// its own values, which carry findings of their own when they are wrong.
func (w *maskWalk) flagged(n *yaml.Node, at map[pos]bool) {
	value := func(v *yaml.Node) {
		switch {
		case v.Kind == yaml.ScalarNode && len(secret.URLCredentials(v.Value)) > 0:
			// masked already, as a plan shows it
		case v.Kind == yaml.ScalarNode || v.Kind == yaml.AliasNode:
			w.mask(v, secret.Redacted)
		}
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k, v := n.Content[i], n.Content[i+1]; at[start(k)] || at[start(v)] {
				value(v)
			}
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			if at[start(c)] {
				value(c)
			}
		}
	}
	for _, c := range n.Content {
		w.flagged(c, at)
	}
}

// merged walks what a merge key brings into a mapping of type t: a
// mapping, or a list of them, each where it stands.
func (w *maskWalk) merged(v *yaml.Node, t reflect.Type) {
	if v.Kind == yaml.SequenceNode {
		for _, c := range v.Content {
			w.merged(c, t)
		}
		return
	}
	w.typed(v, t)
}

// free masks, below n, what a plan masks in free text: the values of
// secret keys, at any depth and in any case, with the anchored value an
// alias there names, and the URLs with credentials; and a key that a
// finding's path would not quote either (looksLikeLabelKey: a secret pasted
// where a label's key goes), so the window shows no more than the path.
func (w *maskWalk) free(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind != yaml.ScalarNode || !looksLikeLabelKey(k.Value) {
				w.mask(k, secret.Redacted)
			}
			if k.Kind == yaml.ScalarNode && w.keys[strings.ToLower(k.Value)] {
				w.mask(v, secret.Redacted)
				if v.Kind == yaml.AliasNode && v.Alias != nil {
					w.mask(resolveAlias(v), secret.Redacted)
				}
			}
		}
	}
	w.url(n)
	for _, c := range n.Content {
		w.free(c)
	}
}

// url masks a scalar that is a URL with credentials as a plan shows it.
func (w *maskWalk) url(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && len(secret.URLCredentials(n.Value)) > 0 {
		w.mask(n, secret.RedactURL(n.Value))
	}
}

// mask stands with for the text of n: a value on one line exactly, any
// other up to where the next node starts, less the blanks before it.
func (w *maskWalk) mask(n *yaml.Node, with string) {
	if n.Line < 1 || n.Line > len(w.m.lines) {
		return
	}
	from := start(n)
	to, ok := w.end(n)
	if !ok {
		to = w.after(n)
	}
	w.add(from, to, with)
}

// end is where a value written on one line ends: a plain scalar after its
// value, a quoted one after its closing quote, a flow mapping or list
// after its closing bracket, each after the anchor and tag before it.
func (w *maskWalk) end(n *yaml.Node) (pos, bool) {
	p := start(n)
	r := []rune(w.m.lines[p.line])
	if p.col >= len(r) {
		return pos{}, false
	}
	rest := string(r[p.col:])
	for len(rest) > 0 && (rest[0] == '&' || rest[0] == '!') {
		word, _, _ := strings.Cut(rest, " ")
		rest = strings.TrimLeft(rest[len(word):], " ")
	}
	at := func(i int) (pos, bool) {
		return pos{p.line, len(r) - len([]rune(rest)) + len([]rune(rest[:i]))}, true
	}
	switch {
	case rest == "":
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0:
		if rest[0] != '"' && rest[0] != '\'' {
			break
		}
		if end := yamltext.ClosingQuote(rest, 0); end >= 0 {
			return at(end + 1)
		}
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		if !strings.Contains(n.Value, "\n") && strings.HasPrefix(rest, n.Value) {
			return at(len(n.Value))
		}
	case n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode:
		if end := closingBracket(rest); end >= 0 {
			return at(end + 1)
		}
	}
	return pos{}, false
}

// closingBracket is the index of the bracket that closes the one text
// starts with, past quoted scalars; -1 when text does not start with one or
// its line does not close it before its end or a comment.
func closingBracket(text string) int {
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
			if i = yamltext.ClosingQuote(text, i); i < 0 {
				return -1
			}
		}
	}
	return -1
}

// after is where the text of n and all below it ends: where the next node
// starts (the text's end when none does), less the blanks before it.
func (w *maskWalk) after(n *yaml.Node) pos {
	last := lastStart(n)
	i, _ := slices.BinarySearchFunc(w.starts, last, func(a, b pos) int {
		if a.before(b) || a == b {
			return -1
		}
		return 1
	})
	end := pos{len(w.m.lines) - 1, len([]rune(w.m.lines[len(w.m.lines)-1]))}
	if i < len(w.starts) {
		end = w.starts[i]
	}
	for from := start(n); from.before(end); {
		r := []rune(w.m.lines[end.line])
		end.col = min(end.col, len(r))
		if end.col == 0 {
			end = pos{end.line - 1, len([]rune(w.m.lines[end.line-1]))}
			continue
		}
		if c := r[end.col-1]; c != ' ' && c != '\t' {
			break
		}
		end.col--
	}
	return end
}

// lastStart is the last place a node of n's subtree starts (aliases not
// followed).
func lastStart(n *yaml.Node) pos {
	last := start(n)
	for _, c := range n.Content {
		if p := lastStart(c); last.before(p) {
			last = p
		}
	}
	return last
}

// add masks the text from..to with with: on the first line; each line
// after it that the value goes on in shows [redacted] after its
// indentation.
func (w *maskWalk) add(from, to pos, with string) {
	if !from.before(to) {
		return
	}
	if from.line == to.line {
		w.m.spans[from.line] = append(w.m.spans[from.line], maskSpan{from.col, to.col, with})
		return
	}
	w.m.spans[from.line] = append(w.m.spans[from.line], maskSpan{from.col, -1, with})
	for l := from.line + 1; l <= to.line; l++ {
		line := w.m.lines[l]
		indent := len([]rune(line)) - len([]rune(strings.TrimLeft(line, " \t")))
		end := -1
		if l == to.line {
			end = to.col
		}
		if end < 0 || indent < end {
			w.m.spans[l] = append(w.m.spans[l], maskSpan{indent, end, secret.Redacted})
		}
	}
}

// merged is a line's spans in order, those that overlap made one, which
// shows [redacted] when either did.
func merged(ss []maskSpan) []maskSpan {
	end := func(s maskSpan) int {
		if s.to < 0 {
			return math.MaxInt
		}
		return s.to
	}
	slices.SortStableFunc(ss, func(a, b maskSpan) int { return a.from - b.from })
	out := ss[:0]
	for _, s := range ss {
		if k := len(out) - 1; k >= 0 && s.from < end(out[k]) {
			if end(s) > end(out[k]) {
				out[k].to = s.to
			}
			if s.with == secret.Redacted {
				out[k].with = secret.Redacted
			}
			continue
		}
		out = append(out, s)
	}
	return out
}
