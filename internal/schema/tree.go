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
	return ReadYAML(data).Tree(fromCloudInit)
}

// Parsed is a document's bytes as yaml.v3 parsed them, once, whatever came
// of it. A reader that looks at the document before the schema does (the
// source, telling how a file delivers it) takes the parse from here and
// hands it on, so the same bytes are never parsed twice: Tree makes of it
// what ReadTree would.
type Parsed struct {
	data []byte
	// first is yaml.v3's node for the first document; nil when data holds
	// none, or it is not YAML.
	first *yaml.Node
	// extra is the second document's node, when there is one.
	extra *yaml.Node
	// err is the parser's error, in the first document or after it, not
	// yet placed (locateSyntaxError parses again: only a Tree asked for
	// pays that).
	err error
}

// ReadYAML parses data: its first document and whether another follows.
func ReadYAML(data []byte) *Parsed {
	p := &Parsed{data: data}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var root yaml.Node
	switch err := dec.Decode(&root); {
	case errors.Is(err, io.EOF):
		return p
	case err != nil:
		p.err = err
		return p
	}
	p.first = &root
	var extra yaml.Node
	switch err := dec.Decode(&extra); {
	case err == nil:
		p.extra = &extra
	case !errors.Is(err, io.EOF):
		p.err = err
	}
	return p
}

// First is the first document's node (yaml.v3's DocumentNode), as
// yaml.Unmarshal reads a document: nil when data holds no document or the
// first is not YAML; given even when a broken or second document follows
// it, which Tree refuses.
func (p *Parsed) First() *yaml.Node { return p.first }

// Tree is the parse as the schema reads it, ReadTree's answer for the same
// bytes: fromCloudInit as there. The error is a *SyntaxError.
func (p *Parsed) Tree(fromCloudInit bool) (*Tree, error) {
	t := &Tree{CloudConfig: fromCloudInit || IsCloudConfig(p.data)}
	if !t.CloudConfig {
		t.misplaced = misplacedHeader(p.data)
	}
	if err := oneLineModel(p.data); err != nil {
		return nil, err
	}
	switch {
	case p.err != nil:
		return nil, locateSyntaxError(p.data, p.err)
	case p.extra != nil:
		return nil, &SyntaxError{Line: p.extra.Line, Col: p.extra.Column, Msg: "the document holds more than one YAML document; keep one"}
	}
	t.root = p.first
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
