package schema

import "encoding/json"

// SchemaID names the JSON Schema for editors (yaml-language-server).
const SchemaID = "https://github.com/corium/corium-agent/schema/config-v1.json"

// JSONSchema is the block's JSON Schema (draft 2020-12), generated from the
// Go types, their validate tags and doc comments. A document is either the
// block itself or a mapping whose corium: key holds it (a cloud-config, whose
// other keys belong to cloud-init). Rules across fields (overlaps, duplicate
// keys, what ha needs when enabled) are beyond JSON Schema; validate checks
// them.
// rootDescription is what an editor shows for the document as a whole: the
// Config type's own comment speaks to the agent's maintainers.
const rootDescription = "The configuration of one Corium node, read by corium-agent at first boot: " +
	"the corium block itself (role: ...), or a mapping whose corium: key holds it, " +
	"as in a #cloud-config, whose other keys belong to cloud-init. " +
	"Rules across fields (overlapping ranges, what ha.enabled needs, duplicate keys) are beyond this schema: " +
	"corium-agent validate checks them. Every field, with its default and rules: docs/reference.md."

func JSONSchema() []byte {
	d, block := describeConfig()
	doc := map[string]any{
		"$schema":     "https://json-schema.org/draft/2020-12/schema",
		"$id":         SchemaID,
		"title":       "corium node configuration, contract v1",
		"description": rootDescription,
		"anyOf": []any{
			map[string]any{"$ref": "#/$defs/Block"},
			map[string]any{
				"type":       "object",
				"required":   []any{BlockKey},
				"properties": map[string]any{BlockKey: map[string]any{"$ref": "#/$defs/Block"}},
			},
		},
		"$defs": map[string]any{"Block": block, "SecretSource": d.source},
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err) // only maps, strings and numbers: cannot fail
	}
	return append(out, '\n')
}
