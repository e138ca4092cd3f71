package rules_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s/rules"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/source"
)

const repo = "../../.."

// knownRenderFailures are rendered configurations the current renderer
// produces and k0s refuses, each with why. The renderer's owner removes an
// entry with the fix; a case listed here that passes fails the test, so the
// table cannot go stale.
var knownRenderFailures = map[string]string{}

// placeholders stand in for the secrets a document fetches at boot, as
// k0s_golden_test.go does; only their shape matters to k0s.
var placeholders = map[schema.SecretKind]string{
	schema.SecretToken:        "K0S-JOIN-TOKEN-SECRET-7f3a",
	schema.SecretPassword:     "vrrpPW1",
	schema.SecretWireGuardKey: "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk=",
	schema.SecretDataSource:   "postgres://k0s:K0S-DSN-SECRET-4c1e@db.example:5432/k0s?sslmode=require",
}

// rendered is what the agent hands k0s for one configuration.
type rendered struct {
	config []byte   // /etc/k0s/k0s.yaml, nil for a worker
	args   []string // `k0s install ...`, program name first
}

func (r rendered) check(t *testing.T) error {
	t.Helper()
	if len(r.args) < 2 || r.args[0] != "k0s" {
		t.Fatalf("not a k0s command line: %q", r.args)
	}
	if err := rules.CheckInstall(r.args[1:], r.config); err != nil {
		return err
	}
	// The unit k0s writes must also start.
	inv, err := rules.ParseInstallArgs(r.args[1:])
	if err != nil {
		return err
	}
	return rules.CheckStart(inv.ServiceArgs("/"), r.config)
}

// TestRenderedPass: every k0s.yaml and install line the repository renders
// is one k0s v1.36.3+k0s.0 installs.
func TestRenderedPass(t *testing.T) {
	cases := map[string]rendered{}
	for name, r := range goldenCases(t) {
		cases[name] = r
	}
	for name, r := range renderCases(t) {
		cases[name] = r
	}
	if len(cases) < 20 {
		t.Fatalf("only %d rendered cases found", len(cases))
	}
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			err := cases[name].check(t)
			reason, known := knownRenderFailures[name]
			switch {
			case known && err == nil:
				t.Errorf("listed in knownRenderFailures (%s) but k0s accepts it now: remove the entry", reason)
			case known:
				t.Logf("known render failure (%s):\n%v", reason, err)
			case err != nil:
				t.Errorf("k0s %s refuses what the agent renders:\n%v\nk0s.yaml:\n%s\nargs: %q", rules.Version, err, cases[name].config, cases[name].args)
			}
		})
	}
	for name := range knownRenderFailures {
		if _, ok := cases[name]; !ok {
			t.Errorf("knownRenderFailures lists %s, which is not rendered any more", name)
		}
	}
}

// goldenCases are the goldens on disk: every expected/k0s.yaml with its
// install.txt, and every k0s-install action in an expected plan.json.
func goldenCases(t *testing.T) map[string]rendered {
	t.Helper()
	out := map[string]rendered{}
	err := filepath.WalkDir(filepath.Join(repo, "testdata", "render"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(filepath.Dir(p)) != "expected" {
			return err
		}
		rel, _ := filepath.Rel(repo, p)
		switch filepath.Base(p) {
		case "install.txt":
			data := readFile(t, p)
			r := rendered{args: strings.Split(strings.TrimRight(string(data), "\n"), "\n")}
			if conf, err := os.ReadFile(filepath.Join(filepath.Dir(p), "k0s.yaml")); err == nil {
				r.config = conf
			}
			out["golden "+filepath.ToSlash(rel)] = r
		case "plan.json":
			var pl plan.Plan
			if err := json.Unmarshal(readFile(t, p), &pl); err != nil || len(pl.Steps) == 0 {
				t.Errorf("%s: %v, %d steps; want a plan", rel, err, len(pl.Steps))
			}
			for _, s := range pl.Steps {
				for _, a := range s.Actions {
					if a.Kind == plan.ActionK0sInstall {
						out["golden "+filepath.ToSlash(rel)] = rendered{args: a.Args}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// renderCases renders every configuration in the repository through the
// agent's own path (schema.Load, then render.RenderNode) with placeholder
// secrets: without facts, and with the facts beside it when there are any.
func renderCases(t *testing.T) map[string]rendered {
	t.Helper()
	var files []string
	for _, pattern := range []string{"testdata/valid/*.yaml", "testdata/render/*/config.yaml", "testdata/render/k0s/*/config.yaml"} {
		m, _ := filepath.Glob(filepath.Join(repo, pattern))
		files = append(files, m...)
	}
	_ = filepath.WalkDir(filepath.Join(repo, "examples"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			files = append(files, p)
		}
		return err
	})
	out := map[string]rendered{}
	for _, f := range files {
		rel, _ := filepath.Rel(repo, f)
		rel = filepath.ToSlash(rel)
		data := readFile(t, f)
		// What the node reads: a cloud-config's write_files are written first.
		if d, err := source.Unpack(data); err == nil {
			data = d.Data
		}
		cfg, _, err := schema.Load(data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if cfg == nil {
			t.Logf("%s: holds no corium configuration", rel)
			continue
		}
		// Offline, without --facts, is a render too (corium-agent plan),
		// unless the agent refuses it for want of the host's facts: then
		// nothing reaches k0s.
		if r, ok := agentRender(t, rel, cfg, nil); ok {
			out["render "+rel+" without facts"] = r
		}
		if fd, err := os.ReadFile(filepath.Join(filepath.Dir(f), "facts.json")); err == nil {
			facts, err := hostfacts.Parse(fd)
			if err != nil {
				t.Fatalf("%s: facts: %v", rel, err)
			}
			if r, ok := agentRender(t, rel, cfg, facts); ok {
				out["render "+rel+" with its facts"] = r
			} else {
				t.Errorf("%s: refused with its facts", rel)
			}
		}
	}
	return out
}

// agentRender is what the agent would hand k0s; ok is false when the agent
// itself refuses the render, before anything is written, because it needs
// the host's facts.
func agentRender(t *testing.T, name string, cfg *schema.Config, facts *hostfacts.Facts) (r rendered, ok bool) {
	t.Helper()
	secrets := render.Secrets{}
	for _, f := range schema.SecretFields(cfg) {
		if f.From != nil {
			secrets[f.FromPath()] = secret.NewValue(placeholders[f.Kind])
		}
	}
	eff := schema.Effective(cfg)
	p, err := render.RenderNode(render.Inputs{
		Config:   cfg,
		K0s:      eff,
		Secrets:  secrets,
		Decision: render.SelectNodeAddress(cfg, eff, facts),
		Facts:    facts,
	})
	switch {
	case err != nil && facts == nil && strings.Contains(err.Error(), "pass --facts"):
		t.Logf("%s: refused by the agent without facts: %v", name, err)
		return rendered{}, false
	case err != nil:
		t.Fatalf("%s: rendering: %v", name, err)
	}
	for _, s := range p.Steps {
		for _, f := range s.Files {
			if f.Path == render.K0sConfigPath {
				r.config = f.Content
			}
		}
		for _, a := range s.Actions {
			if a.Kind == plan.ActionK0sInstall {
				r.args = a.Args
			}
		}
	}
	if r.args == nil {
		t.Fatalf("%s: the plan installs no k0s", name)
	}
	return r, true
}

func readFile(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
