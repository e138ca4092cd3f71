package source

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/yamlfast"
	"github.com/corium/corium-agent/internal/yamltext"
)

// blockKeys are the corium block's top-level keys. A standalone document
// whose top level has one of them is a block; the schema, not this package,
// judges the rest of its keys (a typo beside role: is the schema's error to
// report, with its line, not a reason to skip the source).
var blockKeys = []string{"version", "role", "cluster", "network", "storage", "join", "node", "ha", "wireguard", "firewall", "k0s"}

// errNoBlock marks a document that holds YAML but no corium block.
var errNoBlock = errors.New("no corium block")

// inspect tells whether data holds a corium block, looking only at the
// top-level keys. It returns a reason when the source is absent (a
// cloud-config without a corium: key) and an error when it is broken. A
// document is a cloud-config when it comes from cloud-init or starts with the
// #cloud-config header.
func inspect(data []byte, cloudConfig bool) (absent string, err error) {
	doc, err := parseTop(data)
	if err != nil {
		return "", err
	}
	cloudConfig = cloudConfig || isCloudConfig(data)
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		if cloudConfig {
			return "cloud-config has no corium key", nil
		}
		return "", fmt.Errorf("%w: the document holds only comments", errNoBlock)
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		if cloudConfig && top.Tag == "!!null" {
			return "cloud-config has no corium key", nil
		}
		return "", fmt.Errorf("%w: line %d: the top level is %s, not a mapping of keys", errNoBlock, top.Line, kindName(top))
	}
	keys := make([]string, 0, len(top.Content)/2)
	for i := 0; i+1 < len(top.Content); i += 2 {
		keys = append(keys, top.Content[i].Value)
	}
	switch {
	case slices.Contains(keys, "corium"):
		return "", nil
	case cloudConfig:
		return "cloud-config has no corium key", nil
	case slices.ContainsFunc(keys, func(k string) bool { return slices.Contains(blockKeys, k) }):
		return "", nil
	}
	return "", fmt.Errorf("%w: the top-level keys are %s; write the block itself (role: ...) or put it under a single corium: key",
		errNoBlock, strings.Join(quoted(keys), ", "))
}

// parseTop reads the first YAML document, through yamlfast when the document
// is in its subset (a large config is read again by the schema, and yaml.v3
// alone takes tens of milliseconds for thousands of peers).
func parseTop(data []byte) (yaml.Node, error) {
	if root, ok := yamlfast.Parse(data); ok {
		return *root, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return doc, yamlError{err}
	}
	return doc, nil
}

// isCloudConfig reports whether the first line is cloud-init's header.
func isCloudConfig(data []byte) bool {
	line, _, _ := bytes.Cut(data, []byte("\n"))
	return string(bytes.TrimRight(line, " \t\r")) == "#cloud-config"
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

// quoted spells keys for a message, showing only those shaped like names:
// a document that holds no block may still hold a secret in a key.
func quoted(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = "(a key not shown)"
		if yamltext.NameLike(k) {
			out[i] = fmt.Sprintf("%q", k)
		}
	}
	return out
}

// yamlError is a YAML syntax error as the parser reports it, without the
// document text its message may quote (yamltext).
type yamlError struct{ err error }

func (e yamlError) Error() string {
	line, msg := yamltext.Message(e.err)
	if line > 0 {
		return fmt.Sprintf("YAML syntax error: line %d: %s", line, msg)
	}
	return "YAML syntax error: " + msg
}

func (e yamlError) Unwrap() error { return e.err }
