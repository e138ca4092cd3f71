package k0syaml

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"
)

// Marshal writes a k0s.yaml: header (render's managed-by line), then doc,
// the document k0s.patch was merged into (Node.Tree's form), as YAML with
// a two-space indent and keys in order.
func Marshal(header string, doc map[string]any) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString(header)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encoding k0s.yaml: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding k0s.yaml: %w", err)
	}
	return buf.Bytes(), nil
}
