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
// alias under such a key hides the anchored value too. Text that does not
// parse as YAML, or a secret it cannot place on a line of its own, is an
// error quoting nothing of it: the file is to be hidden whole.
func Redact(data []byte) ([]byte, error) {
	text := string(data)
	r := redaction{text: secret.NewText(text)}
	dec := yaml.NewDecoder(strings.NewReader(text))
	var docs []*yaml.Node
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errors.New("k0s.yaml does not parse as YAML") // the error may quote a value
		}
		docs = append(docs, &doc)
	}
	r.nodes = yamltext.Index(docs...)
	for _, doc := range docs {
		for _, path := range patchSecretPaths() {
			if err := walkSecrets(doc, path, func(key, v *yaml.Node, _ []Step) error { return r.hide(key, v) }); err != nil {
				return nil, err
			}
		}
	}
	return []byte(r.text.String()), nil
}

// redaction is the state of one Redact: the file's text, which shows what
// is hidden, and its nodes in document order (where a value ends).
type redaction struct {
	text  *secret.Text
	nodes *yamltext.Nodes
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
	if start < 0 || start >= r.text.Len() {
		return errors.New("a secret of k0s.yaml is at no line")
	}
	prefix, ok := keyPrefix(r.text.At(start), key)
	if !ok {
		return errors.New("a secret of k0s.yaml has a key the redaction cannot find on its line")
	}
	r.text.HideValue(start, prefix, r.nodes.End(r.text, v).Line)
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
