package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/render (trees, plans, k0s) from the current output")

const goldenDir = "../../../testdata/render"

// scenario is one golden tree: config.yaml, optional secrets.json and
// facts.json, and expected/ holding the rendered files, plan.json and
// nodeaddress.json.
type scenario struct {
	name    string
	dir     string
	cfg     *schema.Config
	secrets Secrets
	facts   *hostfacts.Facts
}

func loadScenarios(t *testing.T) []scenario {
	t.Helper()
	entries, err := os.ReadDir(goldenDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []scenario
	for _, e := range entries {
		dir := filepath.Join(goldenDir, e.Name())
		if _, err := os.Stat(filepath.Join(dir, "config.yaml")); !e.IsDir() || err != nil {
			continue
		}
		s := scenario{name: e.Name(), dir: dir, cfg: loadConfig(t, filepath.Join(dir, "config.yaml"))}
		if data, err := os.ReadFile(filepath.Join(dir, "secrets.json")); err == nil {
			var raw map[string]string
			if err := json.Unmarshal(data, &raw); err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
			s.secrets = Secrets{}
			for k, v := range raw {
				s.secrets[k] = secret.NewValue(v)
			}
		}
		if data, err := os.ReadFile(filepath.Join(dir, "facts.json")); err == nil {
			if s.facts, err = hostfacts.Parse(data); err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
		}
		out = append(out, s)
	}
	if len(out) < 5 {
		t.Fatalf("found %d golden scenarios under %s, want at least 5", len(out), goldenDir)
	}
	return out
}

// loadConfig reads a scenario's configuration the way the node does: parsed,
// validated (an invalid golden config fails the test) and defaulted.
func loadConfig(t *testing.T, path string) *schema.Config {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg, _, err := schema.Load(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return cfg
}

// renderScenario renders a scenario's overlay with its facts, as a first
// boot does.
func renderScenario(s scenario) (plan.Step, error) {
	return renderWireGuard(Inputs{Config: s.cfg, Secrets: s.secrets, Facts: s.facts})
}

// rendered is everything a scenario's overlay produces, its unit files and
// their reload with the interfaces, as files relative to expected/.
func rendered(t *testing.T, s scenario) map[string][]byte {
	t.Helper()
	guard, err := firewall.Render(s.cfg, schema.Effective(s.cfg))
	if err != nil {
		t.Fatalf("%s: render: %v", s.name, err)
	}
	units, err := RenderUnits(Inputs{Config: s.cfg}, guard.On)
	if err != nil {
		t.Fatalf("%s: render: %v", s.name, err)
	}
	step, err := renderScenario(s)
	if err != nil {
		t.Fatalf("%s: render: %v", s.name, err)
	}
	steps := append(units, step)
	out := map[string][]byte{}
	for _, st := range steps {
		for _, f := range st.Files {
			out[strings.TrimPrefix(f.Path, "/")] = f.Content
		}
	}
	out["plan.json"] = mustJSON(t, plan.Plan{Steps: steps})
	out["nodeaddress.json"] = mustJSON(t, SelectNodeAddress(s.cfg, schema.Effective(s.cfg), s.facts))
	return out
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

func TestWireGuardGolden(t *testing.T) {
	for _, s := range loadScenarios(t) {
		t.Run(s.name, func(t *testing.T) {
			got := rendered(t, s)
			expected := filepath.Join(s.dir, "expected")
			if *update {
				if err := os.RemoveAll(expected); err != nil {
					t.Fatal(err)
				}
				for rel, content := range got {
					p := filepath.Join(expected, rel)
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, content, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				return
			}
			want := readTree(t, expected)
			for rel, content := range got {
				w, ok := want[rel]
				if !ok {
					t.Errorf("%s: rendered but not in expected/ (run go test -update and review the diff)", rel)
					continue
				}
				if !bytes.Equal(w, content) {
					t.Errorf("%s differs from expected/ (run go test -update and review the diff)\n--- got\n%s\n--- want\n%s", rel, content, w)
				}
			}
			for rel := range want {
				if _, ok := got[rel]; !ok {
					t.Errorf("%s: in expected/ but no longer rendered", rel)
				}
			}
		})
	}
}

func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel], err = os.ReadFile(p)
		return err
	})
	if errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("%s missing: run go test -update and review the result", dir)
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}
