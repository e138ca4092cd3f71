package schema

import (
	"reflect"
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
	text *secret.Text
}

// pos is a place in the text: 0-based line and rune column.
type pos = secret.Pos

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
	m = &Masked{text: secret.NewText(strings.TrimPrefix(string(data), "\ufeff"))}
	w := maskWalk{m: m, keys: maskedKeys(), nodes: yamltext.Index(t.root)}
	if len(t.root.Content) > 0 {
		w.typed(t.root.Content[0], reflect.TypeFor[Config]())
	}
	if len(flagged) > 0 {
		at := map[pos]bool{}
		for _, f := range flagged {
			at[pos{Line: f[0] - 1, Col: f[1] - 1}] = true
		}
		w.flagged(t.root, at)
	}
	return m, true
}

// Line is line n (1-based) masked, and col, a 1-based column of the
// line as written, where it stands in the masked line (at the start of
// what stands for a masked run it falls in). ok is false past the text.
func (m *Masked) Line(n, col int) (text string, at int, ok bool) {
	if m == nil {
		return "", 0, false
	}
	return m.text.Line(n, col)
}

// maskedKeys are the keys whose values Masked masks, in any case: the
// contract's inline secret fields' names and what a plan masks in
// k0s.yaml.
var maskedKeys = sync.OnceValue(func() []string {
	var keys []string
	for _, p := range secret.Paths(reflect.TypeFor[Config](), "yaml") {
		if t := p.Type; t == reflect.TypeFor[secret.Value]() || t == reflect.TypeFor[*secret.Value]() {
			keys = append(keys, p.Names[len(p.Names)-1])
		}
	}
	return append(keys, k0syaml.SecretKeys()...)
})

// maskWalk finds the masked values of one text.
type maskWalk struct {
	m     *Masked
	keys  []string
	nodes *yamltext.Nodes // where a value's text ends
}

func start(n *yaml.Node) pos { return pos{Line: n.Line - 1, Col: n.Column - 1} }

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
		w.mask(n)
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			w.mask(resolveAlias(n))
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
				w.mask(k)
			}
			w.mask(v)
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
		w.mask(n)
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
			w.mask(v)
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
// alias there names (k0syaml.UnderKeys, the walk a plan's reading of a
// Secret file makes), and the URLs with credentials; and a key that a
// finding's path would not quote either (looksLikeLabelKey: a secret
// pasted where a label's key goes), so the window shows no more than the
// path.
func (w *maskWalk) free(n *yaml.Node) {
	k0syaml.UnderKeys(n, w.keys, func(_, v *yaml.Node) {
		w.mask(v)
		if v.Kind == yaml.AliasNode && v.Alias != nil {
			w.mask(resolveAlias(v))
		}
	})
	w.freeKeys(n)
}

// freeKeys masks, below n, the keys a path would not quote and the URLs
// with credentials.
func (w *maskWalk) freeKeys(n *yaml.Node) {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind != yaml.ScalarNode || !looksLikeLabelKey(k.Value) {
				w.mask(k)
			}
		}
	}
	w.url(n)
	for _, c := range n.Content {
		w.freeKeys(c)
	}
}

// url masks a scalar that is a URL with credentials as a plan shows it.
func (w *maskWalk) url(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && len(secret.URLCredentials(n.Value)) > 0 {
		w.span(n, func(from, to pos) { w.m.text.MaskURL(from, to, n.Value) })
	}
}

// mask hides the text of n (span).
func (w *maskWalk) mask(n *yaml.Node) { w.span(n, w.m.text.Mask) }

// span calls hide with where the text of n is (yamltext's End).
func (w *maskWalk) span(n *yaml.Node, hide func(from, to pos)) {
	if n.Line < 1 || n.Line > w.m.text.Len() {
		return
	}
	hide(start(n), w.nodes.End(w.m.text, n))
}
