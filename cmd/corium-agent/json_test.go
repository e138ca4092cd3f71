package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// nulls lists where a decoded JSON value holds null: --format json prints
// an empty list as [], and an absent object not at all, so a tool reading
// it never has to tell null from empty.
func nulls(v any, at string, out *[]string) {
	switch v := v.(type) {
	case nil:
		*out = append(*out, at)
	case map[string]any:
		for k, x := range v {
			nulls(x, at+"."+k, out)
		}
	case []any:
		for i, x := range v {
			nulls(x, at+"["+strconv.Itoa(i)+"]", out)
		}
	}
}

// TestJSONOutputsHoldNoNull runs every command that prints JSON, in the
// states whose lists come out empty (nothing found, nothing tried, nothing
// written, no interface, no peer), and walks what it prints.
func TestJSONOutputsHoldNoNull(t *testing.T) {
	dir := t.TempDir()
	single := writeConfig(t, "single.yaml", "role: single\n")
	invalid := writeConfig(t, "invalid.yaml", "role: worker\nclustr: {}\n")
	syntax := writeConfig(t, "syntax.yaml", "role: worker\njoin:\n  token: [x\n")
	noPeers := writeConfig(t, "nopeers.yaml", "role: single\nwireguard:\n  - name: wg0\n    address: 10.10.0.1/24\n    listenPort: 51820\n    privateKeyFrom: {file: /run/k}\n    peers: []\n")
	empty := filepath.Join(dir, "empty")
	broken := filepath.Join(dir, "broken")
	for _, d := range []string{empty, filepath.Join(broken, "etc/corium")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(broken, "etc/corium/config.yaml"), []byte("role: [worker\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	provisioned := fixture.DemoRoot(t, demo)
	if code, _, errOut := runCLI(t, demoArgs("apply", provisioned)...); code != exitOK {
		t.Fatalf("provisioning the demo: %s", errOut)
	}
	singleRoot := t.TempDir()
	if code, _, errOut := runCLI(t, "apply", "--root", singleRoot, "--config", single); code != exitOK {
		t.Fatalf("provisioning a single node: %s", errOut)
	}
	failed := t.TempDir()
	runCLI(t, "apply", "--root", failed, "--config", noPeers) // its key file is missing

	runs := [][]string{
		{"validate", single, invalid, syntax, filepath.Join(dir, "missing.yaml")},
		{"plan", "--root", empty},
		{"plan", "--root", broken},
		{"plan", "--root", t.TempDir(), "--config", invalid},
		{"plan", "--root", t.TempDir(), "--config", single},
		{"plan", "--root", t.TempDir(), "--config", noPeers},
		demoArgs("plan", provisioned, "--again"),
		{"plan", "--again", "--root", singleRoot, "--config", single},
		{"resolve", "--root", empty},
		{"resolve", "--root", broken},
		{"resolve", "--root", empty, "--config", invalid},
		{"resolve", "--root", empty, "--config", noPeers},
		{"status", "--root", empty},
		{"status", "--root", provisioned},
		{"status", "--root", singleRoot},
		{"status", "--root", failed},
	}
	for _, args := range runs {
		_, out, errOut := runCLI(t, append(args, "--format", "json")...)
		var v any
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Errorf("%s: not JSON (%v): %q %s", strings.Join(args, " "), err, out, errOut)
			continue
		}
		var found []string
		nulls(v, "", &found)
		if args[0] == "resolve" {
			// The contract's one null: no document, no config object.
			found = slices.DeleteFunc(found, func(at string) bool { return at == ".config" })
		}
		if len(found) > 0 {
			t.Errorf("%s --format json prints null at %v", strings.Join(args, " "), found)
		}
	}
}
