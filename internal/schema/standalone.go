package schema

import (
	"bytes"
	"errors"
	"reflect"

	"gopkg.in/yaml.v3"
)

// Standalone is a cloud-config's corium block alone, as a standalone
// document (the block's keys at the top), for a place where the rest of the
// cloud-config must not go: the kernel command line, which every user of the
// node reads, while a cloud-config's other keys (chpasswd:, users:,
// write_files:) carry passwords and keys of their own. It is encoded anew
// from the parsed block, without the other keys and without any comment (a
// comment may sit anywhere and say anything); an alias to an anchor outside
// the block takes the anchored value along. dropped counts the other
// top-level keys. The result is read back and must decode to the very
// configuration doc holds, else the error says to write the block out.
//
// doc must be an embedded document with a block (Shape ShapeEmbedded).
func (doc *Document) Standalone() (data []byte, dropped int, err error) {
	doc.restore()
	if doc.Shape != ShapeEmbedded || doc.block == nil || doc.Config == nil {
		return nil, 0, errors.New("the document is no cloud-config with a corium block")
	}
	// yaml.v3's errors may quote a value, and a value may be a secret: none
	// is passed on.
	unwritable := errors.New("the corium block cannot be written on its own; write it as a standalone document")
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if enc.Encode(copyBlock(doc.block, map[*yaml.Node]*yaml.Node{})) != nil || enc.Close() != nil {
		return nil, 0, unwritable
	}
	back, err := Parse(buf.Bytes())
	if err != nil || back.Shape != ShapeStandalone || back.Config == nil || len(back.Findings) > 0 ||
		!reflect.DeepEqual(back.Config, doc.Config) {
		return nil, 0, errors.New("the corium block does not read the same on its own; write it as a standalone document")
	}
	return buf.Bytes(), doc.others, nil
}

// copyBlock copies n without its comments and positions. An alias whose
// anchor was copied already stays an alias; one whose anchor is not in the
// copy (it stands outside the block) becomes the anchored value, anchor
// included, so later aliases to it have it to refer to.
func copyBlock(n *yaml.Node, copied map[*yaml.Node]*yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		if c, ok := copied[n.Alias]; ok {
			return &yaml.Node{Kind: yaml.AliasNode, Value: c.Anchor, Alias: c}
		}
		return copyBlock(n.Alias, copied)
	}
	c := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value, Anchor: n.Anchor}
	for _, item := range n.Content {
		c.Content = append(c.Content, copyBlock(item, copied))
	}
	if n.Anchor != "" {
		copied[n] = c
	}
	return c
}
