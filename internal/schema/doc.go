// Package schema owns the node configuration contract: the Go types of the
// corium block, strict parsing from YAML with a position for every field
// path, the defaults (applied only by ApplyDefaults), offline validation, and
// the JSON Schema and operator reference generated from the same types.
//
// Parse walks yaml.Node itself so that unknown keys and wrong types become
// findings rather than one decode abort; Validate adds the field rules
// (validator/v10 tags on the types) and the rules across fields and over the
// whole document, every finding with its path, position and severity, in
// document order. Messages never quote a secret value.
//
// Speed is part of the contract: a node pays for validation on every boot.
// The tree comes from yamlfast when the document is in its subset (yaml.v3
// otherwise), positions are looked up only for findings, and the tags run
// through a small interpreter of the ones the types use rather than through
// validator, whose start-up alone costs a fifth of a small run; the tests hold
// the interpreter against validator itself.
//
// It does no I/O beyond the bytes it is handed: no network, no filesystem, no
// exec, so a workstation validates with exactly the parser a node uses.
// Machine checks (an interface exists, an address is up) and node.name's
// default (it needs the hostname and machine-id) belong to bootstrap.
package schema
