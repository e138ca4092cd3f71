package main

import (
	"encoding/json"
	"testing"
)

func TestSchemaCommand(t *testing.T) {
	code, out, _ := runCLI(t, "schema")
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	var s struct {
		Schema string                     `json:"$schema"`
		Defs   map[string]json.RawMessage `json:"$defs"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	if s.Schema != "https://json-schema.org/draft/2020-12/schema" || s.Defs["Block"] == nil || s.Defs["SecretSource"] == nil {
		t.Errorf("unexpected schema head: %+v", s.Schema)
	}
	if code, _, _ := runCLI(t, "schema", "extra"); code != exitUsage {
		t.Errorf("an argument: exit %d, want 2", code)
	}
}
