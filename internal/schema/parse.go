package schema

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s"
)

// Shape is how a document holds the corium block.
type Shape int

const (
	// ShapeNone: the document holds no corium block (empty, or a
	// cloud-config without a corium: key).
	ShapeNone Shape = iota
	// ShapeStandalone: the top level is the block, or a single corium: key.
	ShapeStandalone
	// ShapeEmbedded: a #cloud-config whose corium: key holds the block.
	ShapeEmbedded
)

func (s Shape) String() string {
	switch s {
	case ShapeStandalone:
		return "standalone"
	case ShapeEmbedded:
		return "embedded"
	}
	return "none"
}

// BlockKey is the key that holds the block in a cloud-config.
const BlockKey = "corium"

// Document is a parsed configuration: the block as typed values with no
// defaults applied, what parsing found wrong, and where every field stands.
type Document struct {
	// Config is the block; nil when Shape is ShapeNone.
	Config *Config
	// Shape says how the document held the block.
	Shape Shape
	// Findings are unknown keys and type mismatches, in document order.
	Findings Findings
	// K0s is what k0s will do with the block (Effective), computed once by
	// Validate, which checks it; the stages after validation (render, the
	// guard, the cluster check) take this value rather than computing
	// their own. Nil before Validate, and without a block.
	K0s *k0s.Effective

	// block is the parsed block, where Position looks fields up; keyIndex
	// holds its large mappings' keys once Position needed them, mergedIndex
	// the keys of mappings that merge others.
	block       *yaml.Node
	keyIndex    map[*yaml.Node]map[string]int
	mergedIndex map[*yaml.Node]map[string]entry
	// reread parses the document again once Forget dropped block.
	reread func() (*Tree, error)
	// repeats are the paths that did not decode: those of Findings, as
	// the tree spells them, and those whose finding was reported under
	// another path already (a node met through several aliases or merge
	// keys).
	repeats []string
	// overBudget says decoding stopped at the alias budget: Config holds
	// only what was decoded before, and the rules would report the rest as
	// missing.
	overBudget bool
	// others counts a cloud-config's top-level keys beside corium:.
	others int
}

// Parse reads a standalone or embedded document strictly: unknown keys in the
// block and values of the wrong type become findings with their positions.
// The error is only for YAML syntax (a *SyntaxError).
func Parse(data []byte) (*Document, error) {
	t, err := ReadTree(data, false)
	if err != nil {
		return nil, err
	}
	return t.Document(), nil
}

// Document decodes the tree's corium block into the types; every mistake is
// a finding.
func (t *Tree) Document() *Document {
	doc := &Document{}
	if t.misplaced != nil {
		// Meant for a cloud-config, but cloud-init would not take it for
		// one: that is the one finding; read as a standalone block, its
		// cloud-init keys would be unrelated ones.
		doc.Shape = ShapeEmbedded
		doc.Findings = Findings{*t.misplaced}
		return doc
	}
	top := t.top()
	if top == nil || (top.Kind == yaml.ScalarNode && top.ShortTag() == "!!null") {
		return doc
	}
	block := doc.locateBlock(t.CloudConfig, top)
	if block == nil {
		return doc
	}
	doc.block = block
	d := &decoder{block: block}
	doc.Config = &Config{}
	d.decode(block, reflectValue(doc.Config))
	doc.Findings, doc.repeats, doc.overBudget = append(doc.Findings, d.findings...), d.repeats, d.spent
	doc.Findings.sortByPosition()
	return doc
}

// locateBlock finds the block node and sets the shape; nil means no block.
func (doc *Document) locateBlock(embedded bool, top *yaml.Node) *yaml.Node {
	if top.Kind != yaml.MappingNode {
		doc.Shape = ShapeStandalone
		if embedded {
			doc.Shape = ShapeEmbedded
		}
		doc.Findings = append(doc.Findings, finding.Finding{Line: top.Line, Col: top.Column,
			Message: "the document must be a mapping holding the corium block"})
		return nil
	}
	if embedded {
		doc.Findings = append(doc.Findings, CloudConfigDuplicates(top)...)
	}
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value != BlockKey {
			continue
		}
		if embedded || len(top.Content) == 2 {
			doc.Shape = ShapeStandalone
			if embedded {
				doc.Shape = ShapeEmbedded
				doc.others = len(top.Content)/2 - 1
			}
			return resolveAlias(top.Content[i+1])
		}
	}
	if embedded {
		return nil
	}
	doc.Shape = ShapeStandalone
	return top
}

// CloudConfigDuplicates are the keys a cloud-config's top level repeats
// (two corium: keys, two write_files), each an error naming both lines:
// cloud-init's YAML loader keeps the last, and the agent reads the first,
// so validate and apply would check and run another document than the one
// cloud-init hands on. top is the cloud-config's top-level mapping.
func CloudConfigDuplicates(top *yaml.Node) Findings {
	if top == nil || top.Kind != yaml.MappingNode {
		return nil
	}
	var out Findings
	dups := newDuplicates(top)
	for i := 0; i+1 < len(top.Content); i += 2 {
		if first := dups.firstLine(i); first > 0 {
			k := resolveAlias(top.Content[i])
			path := k.Value
			if strings.ContainsAny(path, ".[]") {
				path = finding.Path("").Key(path).String()
			}
			out = append(out, finding.Finding{Path: shownPath(path), Line: k.Line, Col: k.Column,
				Message: fmt.Sprintf("duplicate key at the top level of the cloud-config; first given on line %d: cloud-init keeps the last one and the agent would read another, so keep one", first)})
		}
	}
	return out
}
