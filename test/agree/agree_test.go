package agree

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/test/hostile"
)

const repo = "../.."

// hostFacts is a host with the addresses the corpus's documents use, for a
// document that comes without facts of its own.
const hostFacts = `{"interfaces": [{"name": "eth0", "addresses": ["192.0.2.11/24"]},
 {"name": "wg0", "addresses": ["10.10.0.1/24"]}, {"name": "wg1", "addresses": ["10.20.0.1/24"]}],
 "defaultRoute": {"interface": "eth0", "source": "192.0.2.11"}}`

// document is one file to hold both commands to, with the facts it is
// checked on.
type document struct {
	name, file, facts string
	// noApply says why apply is not run on it ("" to run it).
	noApply string
}

// documents lists every document of the repository.
func documents(t *testing.T) []document {
	t.Helper()
	work := t.TempDir()
	defaults := filepath.Join(work, "facts.json")
	if err := os.WriteFile(defaults, []byte(hostFacts), 0o644); err != nil {
		t.Fatal(err)
	}
	var out []document
	glob := func(pattern string) []string {
		files, err := filepath.Glob(filepath.Join(repo, pattern))
		if err != nil || len(files) == 0 {
			t.Fatalf("no document matches %s (%v)", pattern, err)
		}
		return files
	}
	for _, f := range append(glob("testdata/valid/*.yaml"), glob("testdata/invalid/*.yaml")...) {
		out = append(out, document{name: rel(f), file: f, facts: defaults})
	}
	for _, f := range glob("testdata/render/*/config.yaml") {
		facts := filepath.Join(filepath.Dir(f), "facts.json")
		if _, err := os.Stat(facts); err != nil {
			facts = defaults
		}
		out = append(out, document{name: rel(f), file: f, facts: facts})
	}
	for _, f := range append(glob("examples/*/*.yaml"), append(glob("examples/*/*.txt"), glob("examples/appliance/usr/share/corium/config.yaml")...)...) {
		facts := filepath.Join(filepath.Dir(f), "facts.json")
		if _, err := os.Stat(facts); err != nil {
			facts = defaults
		}
		out = append(out, document{name: rel(f), file: f, facts: facts})
	}
	// The hostile corpus: its secrets come from a server, a credential and
	// files that only test/hostile sets up, so apply is its to run.
	corpus := hostile.NewCorpus(t, "https://secrets.example.net")
	for _, f := range glob("testdata/hostile/*.yaml") {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(work, filepath.Base(f))
		if err := os.WriteFile(p, []byte(corpus.Expand(string(raw))), 0o600); err != nil {
			t.Fatal(err)
		}
		out = append(out, document{name: rel(f), file: p, facts: defaults, noApply: "the hostile corpus's secrets are test/hostile's to serve"})
	}
	return out
}

func rel(f string) string { return strings.TrimPrefix(f, repo+"/") }

// validation is what validate --format json says of one file.
type validation struct {
	Files []struct {
		Valid    bool `json:"valid"`
		Findings []struct {
			Path     string `json:"path"`
			Severity string `json:"severity"`
			Message  string `json:"message"`
		} `json:"findings"`
		Error string `json:"error"`
	} `json:"files"`
}

// errors are validate's errors, each "PATH: message" as plan spells them.
func (v validation) errors() []string {
	var out []string
	for _, f := range v.Files {
		if f.Error != "" {
			out = append(out, f.Error)
		}
		for _, x := range f.Findings {
			if x.Severity == "error" {
				out = append(out, joinPath(x.Path, x.Message))
			}
		}
	}
	return out
}

func (v validation) valid() bool { return len(v.Files) == 1 && v.Files[0].Valid }

// planned is what plan --format json says.
type planned struct {
	Validation *struct {
		Valid  bool `json:"valid"`
		Errors []struct {
			Path    string `json:"path"`
			Message string `json:"message"`
		} `json:"errors"`
	} `json:"validation"`
	Error string `json:"error"`
}

func joinPath(path, msg string) string {
	if path == "" {
		return msg
	}
	return path + ": " + msg
}

type agent struct {
	bin string
	env []string
}

func (a agent) run(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(a.bin, args...)
	cmd.Env = append(slices.Clone(a.env), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if _, isExit := err.(*exec.ExitError); err != nil && !isExit {
		t.Fatalf("running %v: %v", args, err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

func (a agent) validate(t *testing.T, file string, extra ...string) validation {
	t.Helper()
	_, out, errOut := a.run(t, nil, append(append([]string{"validate", "--format", "json"}, extra...), file)...)
	var v validation
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("validate %v: %v\n%s%s", extra, err, out, errOut)
	}
	return v
}

func (a agent) plan(t *testing.T, file string, extra ...string) (bool, planned) {
	t.Helper()
	code, out, errOut := a.run(t, nil, append([]string{"plan", "--format", "json", "--root", t.TempDir(), "--config", file}, extra...)...)
	var p planned
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatalf("plan %v: exit %d: %v\n%s%s", extra, code, err, out, errOut)
	}
	return code == 0, p
}

// TestValidateAgreesWithPlanAndApply is the invariant, document by
// document.
func TestValidateAgreesWithPlanAndApply(t *testing.T) {
	docs := documents(t)
	a := agent{bin: agentbin.Path(t), env: fixture.CleanEnv()}
	var applied atomic.Int64
	t.Cleanup(func() { // after every document's subtest
		if n := applied.Load(); n < 15 {
			t.Errorf("apply ran on %d documents, want at least 15: the fake secrets no longer fit them", n)
		}
	})
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			// With facts: the same answer, in the same words.
			withFacts := a.validate(t, d.file, "--facts", d.facts)
			planOK, planned := agreeOn(t, a, d, withFacts, "--facts", d.facts)
			// Without: what plan refuses that it does not refuse on a host
			// with facts needed them; the rest validate refuses too.
			bare := a.validate(t, d.file)
			switch ok, p := agreeOn(t, a, d, bare); {
			case ok || !bare.valid():
			case planOK:
				t.Logf("plan without facts refuses what needs them: %s", p.Error)
			case p.Error == planned.Error:
				t.Errorf("plan refuses with and without facts (%s), validate accepts", p.Error)
			}
			if !planOK || d.noApply != "" {
				return
			}
			if applies(t, a, d) {
				applied.Add(1)
			}
		})
	}
}

// agreeOn holds plan with extra (its facts, if any) to what validate said,
// and returns plan's answer. Without facts, plan may refuse what needs them
// (it says to pass --facts) where validate cannot know: the caller sorts
// those out by plan's answer with facts.
func agreeOn(t *testing.T, a agent, d document, v validation, extra ...string) (bool, planned) {
	t.Helper()
	ok, p := a.plan(t, d.file, extra...)
	withFacts := len(extra) > 0
	verrs := v.errors()
	switch {
	case v.valid() && !ok && !withFacts && p.Validation != nil && p.Validation.Valid:
		// Refused after validation without facts: judged by the caller.
	case v.valid() && !ok:
		t.Errorf("validate %v accepts, plan refuses: %s", extra, p.Error)
	case !v.valid() && ok:
		t.Errorf("plan %v accepts, validate refuses: %q", extra, verrs)
	case ok:
	case p.Validation != nil && !p.Validation.Valid:
		// Refused by validation: validate names every error plan names.
		for _, e := range p.Validation.Errors {
			if m := joinPath(e.Path, e.Message); !slices.Contains(verrs, m) {
				t.Errorf("plan %v refuses with %q, which validate does not say: %q", extra, m, verrs)
			}
		}
	case p.Validation != nil:
		// Refused after validation (the node address, the render): validate
		// says it in plan's words.
		if !slices.Contains(verrs, p.Error) {
			t.Errorf("plan %v refuses with %q, validate with %q", extra, p.Error, verrs)
		}
	default:
		// The file delivers no document, or no YAML: validate says why in
		// plan's words (a syntax error's own, which plan places by line).
		said := func(e string) bool {
			e = strings.TrimPrefix(strings.TrimPrefix(e, "yaml syntax: "), "yaml syntax, near here: ")
			return strings.Contains(p.Error, e)
		}
		if !slices.ContainsFunc(verrs, said) {
			t.Errorf("plan %v cannot read it (%q), validate says %q", extra, p.Error, verrs)
		}
	}
	return ok, p
}
