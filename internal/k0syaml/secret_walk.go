package k0syaml

import (
	"slices"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// secretWalk finds the secrets of a k0s.yaml's YAML: the values on the
// paths of Node's secret.Value fields (where the agent's own secrets stand)
// and under FreeTextSecretKeys at any depth (a helm repository's password
// in what k0s.patch adds), keys matched in any case as k0s matches them,
// through aliases and merge keys. It is the one walk both redactions take:
// Redact hides the lines hide is called for, RedactTree replaces the nodes.
type secretWalk struct {
	// hide is called with each secret's key and value node.
	hide func(key, v *yaml.Node) error
	// visited are the nodes find has searched for the rest of a path
	// (of its length), so aliases and merge keys that name one mapping
	// many times cost one search of it, not one per way to reach it.
	visited map[visit]bool
}

type visit struct {
	n    *yaml.Node
	rest int
}

// anyDepth is the step of a secret's path that is this node or any node
// below it.
const anyDepth = "**"

// walkPaths are the paths secretWalk follows: the typed document's secret
// fields, and each free-text secret key anywhere.
var walkPaths = sync.OnceValue(func() [][]string {
	out := slices.Clone(documentSecretPaths())
	for _, k := range FreeTextSecretKeys {
		out = append(out, []string{anyDepth, k})
	}
	return out
})

// all calls hide for every secret in docs.
func (w *secretWalk) all(docs []*yaml.Node) error {
	for _, doc := range docs {
		for _, path := range walkPaths() {
			w.visited = map[visit]bool{}
			if err := w.find(doc, path); err != nil {
				return err
			}
		}
	}
	return nil
}

// find hides the values on path below n.
func (w *secretWalk) find(n *yaml.Node, path []string) error {
	n = resolve(n)
	if len(path) == 0 || w.visited[visit{n, len(path)}] {
		return nil
	}
	w.visited[visit{n, len(path)}] = true
	switch {
	case n.Kind == yaml.DocumentNode:
		for _, c := range n.Content {
			if err := w.find(c, path); err != nil {
				return err
			}
		}
	case path[0] == anyDepth:
		if err := w.find(n, path[1:]); err != nil {
			return err
		}
		for i, c := range n.Content {
			if n.Kind == yaml.MappingNode && i%2 == 0 {
				continue // a key
			}
			if err := w.find(c, path); err != nil {
				return err
			}
		}
	case path[0] == anyItem && n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			if err := w.find(c, path[1:]); err != nil {
				return err
			}
		}
	case n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolve(n.Content[i]), n.Content[i+1]
			switch {
			case k.Kind == yaml.ScalarNode && k.Tag == "!!merge":
				if err := w.find(v, path); err != nil {
					return err
				}
				if v := resolve(v); v.Kind == yaml.SequenceNode {
					for _, c := range v.Content {
						if err := w.find(c, path); err != nil {
							return err
						}
					}
				}
			case k.Kind != yaml.ScalarNode || !strings.EqualFold(k.Value, path[0]):
			case len(path) == 1:
				if err := w.hide(n.Content[i], v); err != nil {
					return err
				}
			default:
				if err := w.find(v, path[1:]); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}
