package bootstrap

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/rootfs"
)

// An earlier agent took a resolved VRRP password holding a line break and
// wrote it into k0s.yaml, where YAML spells it over several lines, or
// escaped in quotes. plan and plan --again resolve nothing: they must read
// the value out of the file on disk, and no line of it, in no spelling, may
// show in either the text or the JSON of the report.
func TestPlanMasksASecretThatSpansLinesOnDisk(t *testing.T) {
	const indent = "          " // authPass's indentation in the demo's k0s.yaml
	for _, tc := range []struct {
		name, spelled string
		lines         []string
	}{
		{"block scalar", "|-\n" + indent + "    Qz7pw\n" + indent + "    Xw9pw", []string{"Qz7pw", "Xw9pw"}},
		{"double-quoted with escapes", `"Qz7pw\nXw9pw\tR"`, []string{"Qz7pw", "Xw9pw"}},
		{"plain scalar folded over two lines", "Qz7pw\n" + indent + "    Xw9pw", []string{"Qz7pw", "Xw9pw"}},
		{"quoted scalar folded over two lines", "\"Qz7pw\n" + indent + "    Xw9pw\"", []string{"Qz7pw", "Xw9pw"}},
		// YAML reads a quoted scalar to its closing quote, whatever the
		// indentation of the lines it folds.
		{"quoted scalar folded to the margin", "'Qz7pw\n\nXw9pw\n'", []string{"Qz7pw", "Xw9pw"}},
		{"alias of an anchored block scalar", "*pw", []string{"Qz7pw", "Xw9pw"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := provisionedDemo(t)
			k0sYAML := filepath.Join(root.Dir(), render.K0sConfigPath)
			b, err := os.ReadFile(k0sYAML)
			if err != nil {
				t.Fatal(err)
			}
			pass := readDemoSecret(t, root, "vrrp-pass")
			old := strings.Replace(string(b), "authPass: "+pass, "authPass: "+tc.spelled, 1)
			if tc.spelled == "*pw" {
				// The anchor sits under a key that is not a secret's.
				old = strings.Replace(old, "kind: ClusterConfig\n", "kind: ClusterConfig\nx-note: &pw |-\n  Qz7pw\n  Xw9pw\n", 1)
			}
			if old == string(b) {
				t.Fatal("the demo's k0s.yaml lacks its authPass line")
			}
			if err := os.WriteFile(k0sYAML, []byte(old), 0o600); err != nil {
				t.Fatal(err)
			}
			// A change next to the password, so the file's diff is shown.
			config := editedDemoConfig(t, "virtualRouterID: 51", "virtualRouterID: 52")
			for _, withAgain := range []bool{false, true} {
				o := demoOptions(root, nil)
				o.ConfigFile, o.Again, o.Resolver = config, withAgain, nil
				rep, err := Plan(context.Background(), o)
				if err != nil {
					t.Fatalf("plan (again=%v): %v", withAgain, err)
				}
				js, _ := json.Marshal(rep)
				text := planText(rep)
				f := planFileOf(t, rep, render.K0sConfigPath)
				for _, l := range tc.lines {
					if strings.Contains(string(js), l) || strings.Contains(text, l) {
						t.Errorf("again=%v: the plan shows the line %q of the password on disk; k0s.yaml's diff:\n%s", withAgain, l, f.Diff)
					}
				}
				if !strings.Contains(f.Diff, "+ "+indent+"  virtualRouterID: 52") {
					t.Errorf("again=%v: the real change is missing from k0s.yaml's masked diff:\n%s", withAgain, f.Diff)
				}
			}
		})
	}
}

// planText is every string of a plan report, as a text output would
// print them.
func planText(rep *PlanReport) string {
	var b strings.Builder
	for _, s := range rep.Steps {
		for _, f := range s.Files {
			b.WriteString(f.Path + " " + f.Change + "\n" + f.Diff)
		}
		for _, a := range s.Actions {
			b.WriteString(a.Kind + " " + a.Unit + " " + strings.Join(a.Args, " ") + " " + a.When + "\n")
		}
	}
	b.WriteString(strings.Join(rep.Notes, "\n") + strings.Join(rep.Refusals, "\n") + rep.Error)
	return b.String()
}

func planFileOf(t *testing.T, rep *PlanReport, path string) PlanFile {
	t.Helper()
	for _, s := range rep.Steps {
		for _, f := range s.Files {
			if f.Path == path {
				return f
			}
		}
	}
	t.Fatalf("the plan has no %s", path)
	return PlanFile{}
}

func readDemoSecret(t *testing.T, root rootfs.Root, name string) string {
	t.Helper()
	b, err := root.ReadFile("/run/corium/secrets/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}

// A password from a SecretSource is known only at apply: one holding a
// line break is refused there, naming the field and the source, before
// anything is written, and no line of it is told.
func TestApplyRefusesAResolvedPasswordSpanningLines(t *testing.T) {
	root := newDemoRoot(t)
	if err := os.WriteFile(filepath.Join(root.Dir(), "run/corium/secrets/vrrp-pass"), []byte("Qz7p\nXw9\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	st, err := Run(context.Background(), demoOptions(root, &log))
	if err == nil || !strings.Contains(err.Error(), "ha.authPassFrom: the password read from /run/corium/secrets/vrrp-pass is not one word of printable characters") {
		t.Fatalf("apply: %v; want the password refused", err)
	}
	js, _ := json.Marshal(st)
	for _, l := range []string{"Qz7p", "Xw9"} {
		if strings.Contains(err.Error()+log.String()+string(js), l) {
			t.Errorf("the refusal shows %q of the password", l)
		}
	}
	for _, p := range []string{render.K0sConfigPath, "/etc/wireguard/wg0.conf", render.JoinTokenPath} {
		if root.Exists(p) {
			t.Errorf("%s was written before the refusal", p)
		}
	}
}
