package schema

// The doc comments first, so that the reference is built with the fresh ones.
//go:generate go run ./gen docs docs_gen.go
//go:generate go run ./gen reference ../../docs/reference.md
//go:generate go run ./gen jsonschema ../../docs/corium.schema.json
