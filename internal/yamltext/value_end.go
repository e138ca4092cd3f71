package yamltext

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
)

// Nodes are the nodes of a YAML text in the order they stand in it, an
// alias once where it stands (not the value it names again), each with the
// collection holding it. yaml.v3 says where a node starts, not where it
// ends: End reads that from the text and from where the next node starts.
type Nodes struct {
	order  []*yaml.Node
	at     map[*yaml.Node]int // a node's place in order
	size   map[*yaml.Node]int // how many nodes its subtree holds
	parent map[*yaml.Node]*yaml.Node
}

// Index lists the nodes of docs, the documents of one text in order.
func Index(docs ...*yaml.Node) *Nodes {
	x := &Nodes{at: map[*yaml.Node]int{}, size: map[*yaml.Node]int{}, parent: map[*yaml.Node]*yaml.Node{}}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		x.at[n] = len(x.order)
		x.order = append(x.order, n)
		for _, c := range n.Content {
			x.parent[c] = n
			walk(c)
		}
		x.size[n] = len(x.order) - x.at[n]
	}
	for _, d := range docs {
		walk(d)
	}
	return x
}

// Key is the key v is the value of; nil when v is no mapping's value.
func (x *Nodes) Key(v *yaml.Node) *yaml.Node {
	if p := x.parent[v]; p != nil && p.Kind == yaml.MappingNode {
		for i := 1; i < len(p.Content); i += 2 {
			if p.Content[i] == v {
				return p.Content[i-1]
			}
		}
	}
	return nil
}

// End is where the text of n, a node of x, ends in t: where its text
// closes it (closed); else where the next node starts (the text's end when
// none does, or when x does not hold n: too much hidden, not nothing),
// less what stands before that and is not n's: the blanks and indicators
// (- ? :) the next node's line starts with, blank lines, document markers,
// and comments indented no deeper than the collection holding n (its
// mapping's keys, its list's dashes).
//
// A comment indented deeper than that stays with the value, for the
// maskers (a finding's window, a plan) hide it with the value: in a block
// scalar such a line is not a comment but the value's text (a script's
// `# ...`, a commented-out line of a key), which its indentation alone
// cannot tell apart; a line as indented as the keys beside the value, or
// less, cannot be its text (YAML ends a block or folded scalar and a
// nested collection there), so it is shown.
func (x *Nodes) End(t *secret.Text, n *yaml.Node) secret.Pos {
	from := start(n)
	end := secret.Pos{Line: t.Len() - 1, Col: len([]rune(t.At(t.Len() - 1)))}
	var after []*yaml.Node // none for a node x does not hold: to the text's end
	if i, ok := x.at[n]; ok {
		after = x.order[i+x.size[n]:]
	}
	for _, next := range after {
		if next.Line > 0 && next.Line <= t.Len() {
			end = start(next)
			break
		}
	}
	if c, ok := closed(t, n, end.Line); ok {
		return c
	}
	if r := []rune(t.At(end.Line)); strings.Trim(string(r[:min(end.Col, len(r))]), " \t-?:") == "" {
		end.Col = 0 // the next node's line holds nothing of n
	}
	holder := -1
	if p := x.parent[n]; p != nil && p.Kind != yaml.DocumentNode {
		holder = p.Column - 1
	}
	for from.Before(end) {
		line := t.At(end.Line)
		r := []rune(line)
		end.Col = min(end.Col, len(r))
		switch {
		case end.Col == 0:
			if end.Line == 0 {
				return end
			}
			end = secret.Pos{Line: end.Line - 1, Col: len([]rune(t.At(end.Line - 1)))}
			continue
		case end.Line > from.Line && end.Col == len(r) && notValue(line, holder):
			end.Col = 0
			continue
		case r[end.Col-1] == ' ' || r[end.Col-1] == '\t':
			end.Col--
			continue
		}
		break
	}
	if end.Before(from) {
		return from // n holds no text: an empty value
	}
	return end
}

// notValue says whether a whole line after a value's first is none of
// the value's text: blank, a document marker, or a comment indented no
// deeper than holder, the column of what holds the value.
func notValue(line string, holder int) bool {
	text := strings.TrimLeft(line, " \t")
	indent := len(line) - len(text)
	marker := (strings.HasPrefix(line, "---") || strings.HasPrefix(line, "...")) &&
		(len(line) == 3 || line[3] == ' ' || line[3] == '\t')
	return text == "" || marker || (strings.HasPrefix(text, "#") && indent <= holder)
}

func start(n *yaml.Node) secret.Pos { return secret.Pos{Line: n.Line - 1, Col: n.Column - 1} }

// closed is where n ends when its text says so, after the anchor and
// tag before it: a plain scalar on one line after its value, a flow
// mapping or list its line closes after its closing bracket, and a quoted
// scalar after its closing quote, on whatever line up to last it closes
// (every line up to it is the scalar's, one starting with # included).
func closed(t *secret.Text, n *yaml.Node, last int) (secret.Pos, bool) {
	p := start(n)
	if p.Line < 0 || p.Line >= t.Len() {
		return secret.Pos{}, false
	}
	r := []rune(t.At(p.Line))
	if p.Col >= len(r) {
		return secret.Pos{}, false
	}
	rest := SkipProperties(string(r[p.Col:]))
	lines := []string{rest}
	for l := p.Line + 1; quoted(n) && l <= last && l < t.Len(); l++ {
		lines = append(lines, t.At(l))
	}
	text := strings.Join(lines, "\n")
	at := func(i int) (secret.Pos, bool) {
		done := text[:i]
		if nl := strings.LastIndexByte(done, '\n'); nl >= 0 {
			return secret.Pos{Line: p.Line + strings.Count(done, "\n"), Col: len([]rune(done[nl+1:]))}, true
		}
		return secret.Pos{Line: p.Line, Col: len(r) - len([]rune(rest)) + len([]rune(done))}, true
	}
	switch {
	case rest == "":
	case quoted(n):
		if rest[0] != '"' && rest[0] != '\'' {
			break
		}
		if end := ClosingQuote(text, 0); end >= 0 {
			return at(end + 1)
		}
	case n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		if !strings.Contains(n.Value, "\n") && strings.HasPrefix(rest, n.Value) {
			return at(len(n.Value))
		}
	case n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode:
		if end := ClosingBracket(rest); end >= 0 {
			return at(end + 1)
		}
	}
	return secret.Pos{}, false
}

func quoted(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0
}
