// Command gen writes the schema's generated files: the doc comments of the
// configuration types (docs_gen.go), the operator reference
// (docs/reference.md) and the JSON Schema editors load through the examples'
// yaml-language-server modeline (docs/corium.schema.json). Run through go
// generate in internal/schema.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/schema/schemadoc"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) != 2 {
		return errors.New("usage: gen docs|reference|jsonschema OUTPUT")
	}
	var out []byte
	switch args[0] {
	case "docs":
		var err error
		if out, err = schemadoc.Generate("."); err != nil {
			return err
		}
	case "reference":
		out = []byte(schema.Reference())
	case "jsonschema":
		out = schema.JSONSchema()
	default:
		return fmt.Errorf("unknown output %q", args[0])
	}
	if err := os.WriteFile(args[1], out, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", args[1], err)
	}
	return nil
}
