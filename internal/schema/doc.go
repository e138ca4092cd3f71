// Package schema owns the node configuration contract: the Go types of the
// corium block, strict parsing from YAML with a position for every field
// path, the defaults (applied only by ApplyDefaults), offline validation, and
// the JSON Schema and operator reference generated from the same types.
//
// A document is read once, by gopkg.in/yaml.v3, into a Tree, which the source
// chain asks whether it holds a corium block and hands on; a reader that
// looks at the bytes first (source.Unpack, telling a file's shape) keeps the
// parse (ReadYAML) and makes the Tree of it, so no document is parsed twice. Tree.Document
// walks yaml.Node itself so that unknown keys and wrong types become findings
// rather than one decode abort; Validate adds the field rules (validator/v10
// tags on the types, run by validator with the project's named rules
// registered) and the rules across fields and over the whole document, every
// finding with its path, position and severity, in document order. Messages
// never quote a secret value, nor text that could be one; a line of the
// document is shown only as Tree.Masked gives it, with every value that
// could be a secret masked as a plan masks it.
//
// The agent runs once per node, so validation is not on any boot after the
// first; positions are still looked up only for findings, and large
// mappings are indexed, so a document costs time linear in its size.
//
// It does no I/O beyond the bytes it is handed: no network, no filesystem, no
// exec, so a workstation validates with exactly the parser a node uses.
// Machine checks (an interface exists, an address is up) and node.name's
// default (it needs the hostname and machine-id) belong to render.
//
// What k0s will do with a document is not computed here: package k0s does
// that, from the plain values Effective hands it (the tree does not import
// the contract). Validate asks for it once per document, its rules on
// k0s.patch read it, and it keeps it on the document (Document.K0s) for the
// stages after it: render, the guard, the node address, the cluster check.
package schema
