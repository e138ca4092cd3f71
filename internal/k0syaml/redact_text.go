package k0syaml

import (
	"errors"
	"io"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/yamltext"
)

// Redact is the text of a k0s.yaml with its secrets hidden where they
// stand: the line of each key on a secret's path (Node's secret.Value
// fields, and FreeTextSecretKeys at any depth, matched in any case as k0s
// matches them, through aliases and merge keys; see secretWalk) becomes
// "KEY: [redacted]" and the lines its value continues
// on are left out, so a plan shows every other line of the file as it is,
// free text included, and a value spanning lines shows as one line. An
// alias under such a key hides the anchored value too. A block scalar's
// text is YAML to whoever reads it (a helm chart's values): its secrets
// are hidden the same way on the lines they stand on, and a block that is
// not YAML is hidden whole, as nothing can tell where a secret is in it.
// Text that does not parse as YAML, or a secret it cannot place on a line
// of its own, is an error quoting nothing of it: the file is to be hidden
// whole.
func Redact(data []byte) ([]byte, error) {
	t := secret.NewText(string(data))
	if err := redact(t, string(data), 0, 0); err != nil {
		return nil, err
	}
	return []byte(t.String()), nil
}

// redact hides the secrets of part, the text of a file or of a block
// scalar in it, whose first line is line of t and whose lines were taken
// out of t's at indent.
func redact(t *secret.Text, part string, line, indent int) error {
	dec := yaml.NewDecoder(strings.NewReader(part))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return errors.New("k0s.yaml does not parse as YAML") // the error may quote a value
		}
		docs = append(docs, &doc)
	}
	r := redaction{text: t, part: secret.NewText(part), nodes: yamltext.Index(docs...), line: line, indent: indent}
	for _, doc := range docs {
		for _, path := range patchSecretPaths() {
			if err := walkSecrets(doc, path, func(key, v *yaml.Node, _ []Step) error { return r.hide(key, v) }); err != nil {
				return err
			}
		}
	}
	for _, doc := range docs {
		if err := r.blocks(doc); err != nil {
			return err
		}
	}
	return nil
}

// redaction is the state of one Redact of a text read as YAML: the file's
// text, which shows what is hidden; part, the text read (the file's, or a
// block scalar's), and its nodes in document order (where a value ends);
// and where part stands in the file.
type redaction struct {
	text, part   *secret.Text
	nodes        *yamltext.Nodes
	line, indent int
}

// blocks hides the secrets of the text of each block scalar below n, an
// alias's value once, where it is anchored.
func (r *redaction) blocks(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode && n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return r.block(n)
	}
	for _, c := range n.Content {
		if err := r.blocks(c); err != nil {
			return err
		}
	}
	return nil
}

// block reads the text of the block scalar n as it is written (a folded
// block's lines too, as they show) out of its indentation, and hides its
// secrets at the lines they stand on; n whole when that text is not YAML
// or holds a secret it cannot place.
func (r *redaction) block(n *yaml.Node) error {
	first, last := n.Line, r.nodes.End(r.part, n).Line // n.Line is the indicator's (1-based): the text starts on the next
	indent := -1
	for i := first; i <= last; i++ {
		l := r.part.At(i)
		if s := strings.TrimLeft(l, " "); s != "" && (indent < 0 || len(l)-len(s) < indent) {
			indent = len(l) - len(s)
		}
	}
	if indent < 0 {
		return nil // no text
	}
	lines := make([]string, 0, last-first+1)
	for i := first; i <= last; i++ {
		l := r.part.At(i)
		lines = append(lines, l[min(indent, len(l)):])
	}
	if redact(r.text, strings.Join(lines, "\n"), r.line+first, r.indent+indent) == nil {
		return nil
	}
	if key := r.nodes.Key(n); key != nil {
		return r.hideLines(key, n)
	}
	end := secret.Pos{Line: r.line + last, Col: r.indent + len([]rune(r.part.At(last)))}
	r.text.Mask(secret.Pos{Line: r.line + first, Col: r.indent + indent}, end) // a list's item
	return nil
}

// hide hides the value v of key and, v being an alias, the value it
// names where it is anchored.
func (r *redaction) hide(key, v *yaml.Node) error {
	if err := r.hideLines(key, v); err != nil {
		return err
	}
	if v.Kind != yaml.AliasNode {
		return nil
	}
	target := resolve(v)
	owner := r.nodes.Key(target)
	if owner == nil {
		return errors.New("a secret of k0s.yaml is an alias of a value under no key")
	}
	return r.hideLines(owner, target)
}

// hideLines replaces key's line by the key and the marker, and leaves out
// the lines v continues on, up to where it ends (yamltext's End).
func (r *redaction) hideLines(key, v *yaml.Node) error {
	start := key.Line - 1
	if start < 0 || start >= r.part.Len() {
		return errors.New("a secret of k0s.yaml is at no line")
	}
	prefix, ok := keyPrefix(r.part.At(start), key)
	if !ok {
		return errors.New("a secret of k0s.yaml has a key the redaction cannot find on its line")
	}
	line := r.text.At(r.line + start)
	r.text.HideValue(r.line+start, line[:r.indent]+prefix, r.line+r.nodes.End(r.part, v).Line)
	return nil
}

// keyPrefix is line up to and including the ':' that ends key, which
// starts at key.Column (counted in characters, as yaml.v3 counts).
func keyPrefix(line string, key *yaml.Node) (string, bool) {
	col, n := -1, 0
	for i := range line {
		if n == key.Column-1 {
			col = i
			break
		}
		n++
	}
	if col < 0 {
		return "", false
	}
	if key.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) != 0 {
		end := yamltext.ClosingQuote(line, col)
		if end < 0 {
			return "", false
		}
		col = end + 1
	}
	colon := strings.IndexByte(line[col:], ':')
	if colon < 0 {
		return "", false
	}
	return line[:col+colon+1], true
}
