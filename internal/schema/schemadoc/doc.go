// Package schemadoc reads the doc comments of the configuration's Go types
// from their source, so that the JSON Schema and the reference are generated
// from the same text a reader of the code sees.
//
// It is used by go generate and by the test that fails when the generated
// files are stale; the agent itself never reads source.
package schemadoc
