package k0syaml

import (
	"cmp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
)

// Step is one step of a path into a YAML tree: a mapping's key as
// written, or a list's item (Index >= 0, Key "").
type Step struct {
	Key   string
	Index int
}

// anyDepth is the step of a secret's path that is any number of steps
// (none included): a free-text key, secret wherever it stands.
const anyDepth = "**"

// walkSecrets calls found with each key on path below n (its steps
// matched in any case, as k0s matches them; secret.AnyItem every item of a list;
// anyDepth any steps), its value and the steps walked to it, through
// aliases and merge keys. It is the one walk over a tree for secrets: Redact
// hides what it finds in a k0s.yaml, PatchSecrets names what it finds in
// a k0s.patch.
func walkSecrets(n *yaml.Node, path []string, found func(key, v *yaml.Node, at []Step) error) error {
	w := secretWalk{visited: map[visit]bool{}, found: found}
	return w.find(n, path, nil)
}

// UnderKeys calls found with each key of keys at any depth below n (a
// document or any node of one), matched in any case, and its value, each
// key once, in the order the keys stand in the text: walkSecrets' walk
// for a reader that knows a file's secrets by their keys alone (a
// Secret file's SecretKeys, the free-form maps a finding's window shows),
// so every "value of a secret key, wherever it stands" is found alike,
// through aliases and merge keys.
func UnderKeys(n *yaml.Node, keys []string, found func(key, v *yaml.Node)) {
	type hit struct{ key, v *yaml.Node }
	var hits []hit
	seen := map[*yaml.Node]bool{}
	for _, k := range keys {
		_ = walkSecrets(n, []string{anyDepth, k}, func(key, v *yaml.Node, _ []Step) error {
			if !seen[key] {
				seen[key] = true
				hits = append(hits, hit{key, v})
			}
			return nil
		})
	}
	slices.SortStableFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.key.Line, b.key.Line), cmp.Compare(a.key.Column, b.key.Column))
	})
	for _, h := range hits {
		found(h.key, h.v)
	}
}

type secretWalk struct {
	// visited are the nodes find has searched for the rest of a path
	// (of its length), so aliases and merge keys that name one mapping
	// many times cost one search of it, not one per way to reach it.
	visited map[visit]bool
	found   func(key, v *yaml.Node, at []Step) error
}

type visit struct {
	n    *yaml.Node
	rest int
}

// find calls found for the values on path below n, at the steps at.
func (w *secretWalk) find(n *yaml.Node, path []string, at []Step) error {
	n = resolve(n)
	if len(path) == 0 || w.visited[visit{n, len(path)}] {
		return nil
	}
	w.visited[visit{n, len(path)}] = true
	if path[0] == anyDepth {
		if err := w.find(n, path[1:], at); err != nil {
			return err
		}
		return w.children(n, at, func(c *yaml.Node, at []Step) error { return w.find(c, path, at) })
	}
	switch {
	case n.Kind == yaml.DocumentNode:
		for _, c := range n.Content {
			if err := w.find(c, path, at); err != nil {
				return err
			}
		}
	case path[0] == secret.AnyItem && n.Kind == yaml.SequenceNode:
		for i, c := range n.Content {
			if err := w.find(c, path[1:], append(at[:len(at):len(at)], Step{Index: i})); err != nil {
				return err
			}
		}
	case n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolve(n.Content[i]), n.Content[i+1]
			switch {
			case k.Kind == yaml.ScalarNode && k.Tag == "!!merge":
				if err := w.find(v, path, at); err != nil {
					return err
				}
				if v := resolve(v); v.Kind == yaml.SequenceNode {
					for _, c := range v.Content {
						if err := w.find(c, path, at); err != nil {
							return err
						}
					}
				}
			case k.Kind != yaml.ScalarNode || !strings.EqualFold(k.Value, path[0]):
			case len(path) == 1:
				if err := w.found(n.Content[i], v, append(at[:len(at):len(at)], Step{Key: k.Value, Index: -1})); err != nil {
					return err
				}
			default:
				if err := w.find(v, path[1:], append(at[:len(at):len(at)], Step{Key: k.Value, Index: -1})); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// children calls each with the values and items right below n.
func (w *secretWalk) children(n *yaml.Node, at []Step, each func(c *yaml.Node, at []Step) error) error {
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := each(c, at); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			if err := each(c, append(at[:len(at):len(at)], Step{Index: i})); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := each(n.Content[i+1], append(at[:len(at):len(at)], Step{Key: resolve(n.Content[i]).Value, Index: -1})); err != nil {
				return err
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
