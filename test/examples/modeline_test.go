package examples

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// schemaFile is where the JSON Schema for editors lives in the checkout,
// written by go generate ./internal/schema from the same types the agent
// validates with.
const schemaFile = "docs/corium.schema.json"

var modeline = regexp.MustCompile(`(?m)^# yaml-language-server: \$schema=(\S+)$`)

// TestSchemaFileIsCurrent fails when docs/corium.schema.json differs from what
// the agent prints, so an editor never checks against a stale schema.
func TestSchemaFileIsCurrent(t *testing.T) {
	out, code := runAgent(t, "schema")
	if code != 0 {
		t.Fatalf("corium-agent schema: exit %d\n%s", code, out)
	}
	if !bytes.Equal([]byte(out), readRepo(t, schemaFile)) {
		t.Errorf("%s is stale: run go generate ./internal/schema", schemaFile)
	}
}

// TestModelinesPointAtTheSchema checks every example that holds a corium
// block: it carries the modeline, the modeline resolves (relative to the
// file, as yaml-language-server resolves it) to docs/corium.schema.json, and
// that schema accepts the file.
func TestModelinesPointAtTheSchema(t *testing.T) {
	compiled := compileSchema(t)
	checked := 0
	for _, rel := range exampleConfigs(t) {
		data := readRepo(t, rel)
		if _, ok := writtenConfig(t, data); ok {
			continue // the block is a string for cloud-init; an editor cannot see it
		}
		m := modeline.FindSubmatch(data)
		if m == nil {
			if !strings.HasPrefix(rel, "examples/demo/") { // run by make demo, not copied
				t.Errorf("%s: no yaml-language-server modeline; add # yaml-language-server: $schema=<relative path to %s>", rel, schemaFile)
			}
			continue
		}
		target := path.Clean(path.Join(path.Dir(rel), string(m[1])))
		if target != schemaFile {
			t.Errorf("%s: the modeline points at %s, not %s", rel, target, schemaFile)
			continue
		}
		if err := compiled.Validate(asJSON(t, rel, data)); err != nil {
			t.Errorf("%s: the editor's schema rejects it: %v", rel, err)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no example carries a modeline")
	}
}

// TestSchemaCatchesAnEditorMistake is the control: the compiled schema must
// reject a misspelt key, as an editor would underline it.
func TestSchemaCatchesAnEditorMistake(t *testing.T) {
	doc := []byte("role: worker\njoin:\n  tokenFrom: {file: /run/t}\nnode:\n  nmae: w1\n")
	if err := compileSchema(t).Validate(asJSON(t, "typo", doc)); err == nil {
		t.Error("the schema accepts node.nmae")
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(readRepo(t, schemaFile)))
	if err != nil {
		t.Fatalf("%s is not JSON: %v", schemaFile, err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaFile, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemaFile)
	if err != nil {
		t.Fatalf("compiling %s: %v", schemaFile, err)
	}
	return s
}

// asJSON is the YAML document as the value an editor's JSON Schema
// validator sees.
func asJSON(t *testing.T, name string, data []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: not YAML: %v", name, err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return out
}
