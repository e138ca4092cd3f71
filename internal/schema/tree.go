package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/yamltext"
)

// Tree is a configuration document as read, once: its YAML tree and whether
// it is a cloud-config (it came from cloud-init, or starts with the
// #cloud-config header). The source chain asks it whether it holds a corium
// block (Holds) and hands it on; the schema decodes it (Document).
type Tree struct {
	// root is yaml.v3's document node; nil for a document with no YAML in
	// it (empty, or comments only).
	root        *yaml.Node
	CloudConfig bool
	// misplaced is a cloud-config header that cloud-init would not see
	// (header.go), nil when there is none.
	misplaced *finding.Finding
}

// ErrNoBlock marks a document that holds YAML but no corium block.
var ErrNoBlock = errors.New("no corium block")

// ReadTree parses the one YAML document data holds. fromCloudInit says the
// document came from cloud-init, which makes it a cloud-config whatever its
// first line. The error is a *SyntaxError.
func ReadTree(data []byte, fromCloudInit bool) (*Tree, error) {
	t := &Tree{CloudConfig: fromCloudInit || IsCloudConfig(data)}
	if !t.CloudConfig {
		t.misplaced = misplacedHeader(data)
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	switch err := dec.Decode(&root); {
	case errors.Is(err, io.EOF):
		return t, nil
	case err != nil:
		return nil, locateSyntaxError(data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &SyntaxError{Line: extra.Line, Col: extra.Column, Msg: "the document holds more than one YAML document; keep one"}
	} else if !errors.Is(err, io.EOF) {
		return nil, locateSyntaxError(data, err)
	}
	t.root = &root
	return t, nil
}

// top is the document's top-level node, nil when there is none.
func (t *Tree) top() *yaml.Node {
	if t.root == nil || len(t.root.Content) == 0 {
		return nil
	}
	return resolveAlias(t.root.Content[0])
}

// Holds answers the source chain: whether the document holds a corium
// block, looking only at the top-level keys. absent is the reason a source
// counts as absent (a cloud-config without a corium: key); the error
// (ErrNoBlock) is a document that was meant to say something and does not.
// A standalone document holds a block when its top level has one of the
// block's keys: the schema, not the chain, judges the rest of its keys (a
// typo beside role: is the schema's error to report, with its line, not a
// reason to skip the source).
func (t *Tree) Holds() (absent string, err error) {
	const noCorium = "cloud-config has no corium key"
	top := t.top()
	switch {
	case t.misplaced != nil:
		return "", fmt.Errorf("line %d: %s", t.misplaced.Line, t.misplaced.Message)
	case top == nil && t.CloudConfig:
		return noCorium, nil
	case top == nil:
		return "", fmt.Errorf("%w: the document holds only comments", ErrNoBlock)
	case top.Kind != yaml.MappingNode && t.CloudConfig && top.ShortTag() == "!!null":
		return noCorium, nil
	case top.Kind != yaml.MappingNode:
		return "", fmt.Errorf("%w: line %d: the top level is %s, not a mapping of keys", ErrNoBlock, top.Line, kindName(top))
	}
	keys := make([]string, 0, len(top.Content)/2)
	for i := 0; i+1 < len(top.Content); i += 2 {
		keys = append(keys, top.Content[i].Value)
	}
	blockKeys := structFields(reflectValue(&Config{}).Type()).names
	switch {
	case slices.Contains(keys, BlockKey):
		return "", nil
	case t.CloudConfig:
		return noCorium, nil
	case slices.ContainsFunc(keys, func(k string) bool { return slices.Contains(blockKeys, k) }):
		return "", nil
	}
	return "", fmt.Errorf("%w: the top-level keys are %s; write the block itself (role: ...) or put it under a single corium: key",
		ErrNoBlock, strings.Join(quotedNames(keys), ", "))
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	}
	return "a scalar"
}

// quotedNames spells keys for a message, showing only those shaped like
// names: a document that holds no block may still hold a secret in a key.
func quotedNames(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = "(a key not shown)"
		if yamltext.NameLike(k) {
			out[i] = fmt.Sprintf("%q", k)
		}
	}
	return out
}
