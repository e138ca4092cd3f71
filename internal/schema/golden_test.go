package schema

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
)

var update = flag.Bool("update", false, "rewrite the expected messages in testdata from the current output")

const testdata = "../../testdata"

// findingLines is what a golden file holds: one finding per line,
// LINE:COL: [warning: ]PATH: message, or the syntax error.
func findingLines(t *testing.T, data []byte) string {
	t.Helper()
	doc, err := Parse(data)
	if err != nil {
		var syn *SyntaxError
		if !errors.As(err, &syn) {
			t.Fatalf("Parse returned %T, want *SyntaxError: %v", err, err)
		}
		return fmt.Sprintf("%d:%d: %s\n", syn.Line, syn.Col, syn.Finding().Message)
	}
	var b strings.Builder
	for _, f := range Validate(doc) {
		sev := ""
		if f.Severity == finding.Warning {
			sev = "warning: "
		}
		fmt.Fprintf(&b, "%d:%d: %s%s\n", f.Line, f.Col, sev, f)
	}
	return b.String()
}

func configs(t *testing.T, kind string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(testdata, kind, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no configs in testdata/%s: %v", kind, err)
	}
	return files
}

func checkGolden(t *testing.T, file, got string) {
	t.Helper()
	golden := strings.TrimSuffix(file, ".yaml") + ".golden"
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("reading expected messages (run go test ./internal/schema -update): %v", err)
	}
	if got != string(want) {
		t.Errorf("messages differ from %s\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

// TestInvalidConfigs: every invalid config yields exactly its expected
// messages, at least one of them an error.
func TestInvalidConfigs(t *testing.T) {
	files := configs(t, "invalid")
	if len(files) < 60 {
		t.Errorf("only %d invalid configs; the contract wants at least 60", len(files))
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := findingLines(t, data)
			if _, _, err := Load(data); err == nil {
				t.Errorf("Load accepted an invalid config; findings:\n%s", got)
			}
			checkGolden(t, file, got)
		})
	}
}

// TestValidConfigs: every valid config loads, and its warnings are the
// expected ones.
func TestValidConfigs(t *testing.T) {
	for _, file := range configs(t, "valid") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cfg, fs, err := Load(data)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if cfg == nil || cfg.Role == "" {
				t.Fatalf("Load returned no config")
			}
			if len(fs.Errors()) != 0 {
				t.Errorf("errors in a valid config: %v", fs.Errors())
			}
			checkGolden(t, file, findingLines(t, data))
		})
	}
}

// Every field rule's message appears in some expected output, so no rule
// goes without a failing config in testdata.
func TestEveryFieldRuleHasAFailingConfig(t *testing.T) {
	var all strings.Builder
	files, _ := filepath.Glob(filepath.Join(testdata, "invalid", "*.golden"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all.Write(b)
	}
	for tag, msg := range fieldMessages {
		if !strings.Contains(all.String(), msg) {
			t.Errorf("no invalid config in testdata fails the %s rule (%q)", tag, msg)
		}
	}
}
