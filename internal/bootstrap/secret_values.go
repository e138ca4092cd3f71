package bootstrap

import (
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/wgquick"
)

// secretsIn reads the secret values out of the text of the Secret file f:
// the whole text of a file secret as a whole; a k0s.yaml's own secrets as
// k0s reads them, by their place in the typed document (package k0syaml),
// and in the text it does not model the values under f.SecretKeys; else
// the values under f.SecretKeys, parsed as f.SecretSyntax spells them, so
// a value YAML spreads over lines, quotes or escapes is read whole as the
// string it is, and a wg-quick file's keys are read as wg reads them,
// whatever their spelling (package wgquick).
// ok is false when the text does not parse: its values cannot be known, and
// the file is to be hidden as a whole.
func secretsIn(f plan.File, text string) (values []string, ok bool) {
	switch {
	case !f.Secret:
		return nil, true
	case len(f.SecretKeys) == 0:
		return []string{text}, true
	case f.SecretSyntax == plan.SyntaxK0s:
		return k0sSecrets(text, f.SecretKeys)
	case f.SecretSyntax == plan.SyntaxYAML:
		return yamlSecrets(text, f.SecretKeys)
	}
	return wgQuickSecrets(text)
}

// k0sSecrets are the secrets of a k0s.yaml: the agent's own, as k0syaml
// reads them, and the values under freeTextKeys in the rest of the text.
// A file either cannot read gives what the other found, and ok false.
func k0sSecrets(text string, freeTextKeys []string) ([]string, bool) {
	values, ok := yamlSecrets(text, freeTextKeys)
	n, err := k0syaml.Parse([]byte(text))
	if err != nil {
		return values, false
	}
	for _, v := range n.Secrets() {
		values = append(values, v.Reveal())
	}
	return values, ok
}

// wgQuickSecrets are the secrets of a wg-quick file, as wgquick reads it;
// a file it cannot read gives every value wg would read under a secret
// key, and ok false.
func wgQuickSecrets(text string) ([]string, bool) {
	f, err := wgquick.Parse([]byte(text))
	if err != nil {
		return wgquick.SecretValues([]byte(text)), false
	}
	var values []string
	for _, v := range f.Secrets() {
		values = append(values, v.Reveal())
	}
	return values, true
}

// yamlSecrets are the scalars under keys, at any depth (k0syaml.UnderKeys),
// in every document of text: a value under a secret key is secret whole, a
// mapping or a list included, its keys too. An alias under a secret key is
// followed (each anchored node once, so aliases cannot multiply the work).
func yamlSecrets(text string, keys []string) ([]string, bool) {
	var out []string
	seen := map[*yaml.Node]bool{}
	var scalars func(n *yaml.Node)
	scalars = func(n *yaml.Node) {
		switch {
		case n.Kind == yaml.ScalarNode:
			out = append(out, n.Value)
		case n.Kind == yaml.AliasNode && n.Alias != nil && !seen[n.Alias]:
			seen[n.Alias] = true
			scalars(n.Alias)
		default:
			for _, c := range n.Content {
				scalars(c)
			}
		}
	}
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, true
		}
		if err != nil {
			return nil, false
		}
		k0syaml.UnderKeys(&doc, keys, func(_, v *yaml.Node) { scalars(v) })
	}
}

// secretForms are the spellings of the secret v that a line of a printed
// file can hold: v, each of its lines (a block scalar, or a file written
// line by line, spells a value that spans lines one line at a time), and v
// as YAML, JSON and Go escape it inside quotes (a line break or a tab as
// `\n`, `\t`), so neither a line break nor a control character lets any part
// of it through the mask. Surrounding blanks are dropped: a line holds the
// value with its own indentation.
func secretForms(v string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	add(v)
	for _, l := range strings.Split(v, "\n") {
		add(l)
	}
	if b, err := yaml.Marshal(v); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); !blockIndicator().MatchString(l) {
				add(strings.Trim(l, `"'`))
			}
		}
	}
	if b, err := json.Marshal(v); err == nil {
		add(strings.Trim(string(b), `"`))
	}
	add(strings.Trim(strconv.Quote(v), `"`))
	return out
}

// blockIndicator matches the header line of a YAML block scalar (`|-`,
// `>2`), which says how the lines under it are read and holds nothing of
// the value.
var blockIndicator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[|>][-+0-9]*$`) })
