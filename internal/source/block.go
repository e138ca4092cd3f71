package source

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/corium/corium-agent/internal/schema"
)

// Inspect reads data once and tells whether it holds a corium block
// (schema.Tree.Holds): a reason when the source is absent (a cloud-config
// without a corium: key), an error when it is broken. The tree goes on to
// the schema with the document, so it is not parsed twice.
func Inspect(data []byte, fromCloudInit bool) (*schema.Tree, string, error) {
	tree, err := schema.ReadTree(data, fromCloudInit)
	var syn *schema.SyntaxError
	if errors.As(err, &syn) {
		return nil, "", fmt.Errorf("YAML syntax error: %w", syn)
	}
	if err != nil {
		return nil, "", err
	}
	absent, err := tree.Holds()
	return tree, absent, err
}

// Blank says data holds nothing but white space: no document at all.
func Blank(data []byte) bool { return len(bytes.TrimSpace(data)) == 0 }
