package k0syaml

import (
	"strings"

	"gopkg.in/yaml.v3"
)

// find hides the values on path below n.
func (r *redaction) find(n *yaml.Node, path []string) error {
	n = resolve(n)
	if len(path) == 0 || r.visited[visit{n, len(path)}] {
		return nil
	}
	r.visited[visit{n, len(path)}] = true
	switch {
	case n.Kind == yaml.DocumentNode:
		for _, c := range n.Content {
			if err := r.find(c, path); err != nil {
				return err
			}
		}
	case path[0] == anyItem && n.Kind == yaml.SequenceNode:
		for _, c := range n.Content {
			if err := r.find(c, path[1:]); err != nil {
				return err
			}
		}
	case n.Kind == yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := resolve(n.Content[i]), n.Content[i+1]
			switch {
			case k.Kind == yaml.ScalarNode && k.Tag == "!!merge":
				if err := r.find(v, path); err != nil {
					return err
				}
				if v := resolve(v); v.Kind == yaml.SequenceNode {
					for _, c := range v.Content {
						if err := r.find(c, path); err != nil {
							return err
						}
					}
				}
			case k.Kind != yaml.ScalarNode || !strings.EqualFold(k.Value, path[0]):
			case len(path) == 1:
				if err := r.hide(n.Content[i], v); err != nil {
					return err
				}
			default:
				if err := r.find(v, path[1:]); err != nil {
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
