package k0syaml

import (
	"errors"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
)

// RedactTree is doc, a ClusterConfig as a tree (k0s.patch, or what it is
// merged into), with the values Redact hides in a k0s.yaml replaced by
// secret.Redacted: what an output or a record that shows a document's
// k0s.patch may hold of it. doc is left as it was. The error quotes nothing
// of doc.
func RedactTree(doc map[string]any) (map[string]any, error) {
	if doc == nil {
		return nil, nil
	}
	var root yaml.Node
	if err := root.Encode(doc); err != nil {
		return nil, errors.New("a k0s.patch that does not encode as YAML cannot be shown")
	}
	w := secretWalk{hide: func(_, v *yaml.Node) error {
		*v = yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: secret.Redacted}
		return nil
	}}
	if err := w.all([]*yaml.Node{&root}); err != nil {
		return nil, err
	}
	var out map[string]any
	if err := root.Decode(&out); err != nil {
		return nil, errors.New("a redacted k0s.patch does not decode as YAML")
	}
	return out, nil
}
