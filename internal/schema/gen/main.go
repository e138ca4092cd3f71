// Command gen writes the schema's generated files: the doc comments of the
// configuration types (docs_gen.go), the operator reference
// (docs/reference.md), the JSON Schema editors load through the examples'
// yaml-language-server modeline (docs/corium.schema.json), and the table of
// k0s's listeners in docs/firewall.md. Run through go generate in
// internal/schema and internal/k0s.
package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/corium/corium-agent/internal/k0s"
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
		return errors.New("usage: gen docs|reference|jsonschema|firewall OUTPUT")
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
	case "firewall":
		// The listeners table of docs/firewall.md, spliced into the
		// hand-written page between its markers.
		doc, err := os.ReadFile(args[1])
		if err != nil {
			return fmt.Errorf("reading %s: %w", args[1], err)
		}
		spliced, err := k0s.SpliceListeners(string(doc))
		if err != nil {
			return fmt.Errorf("%s: %w", args[1], err)
		}
		out = []byte(spliced)
	default:
		return fmt.Errorf("unknown output %q", args[0])
	}
	if err := os.WriteFile(args[1], out, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", args[1], err)
	}
	return nil
}
