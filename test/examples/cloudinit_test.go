package examples

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/testutil/host"
)

// The one complaint cloud-init 23.4 and later has about the embedded form:
// its schema closes the top level, and corium is not one of its keys. At boot
// that is a logged warning; the key stays in cloud-config.txt.
const unknownCorium = "corium: Additional properties are not allowed ('corium' was unexpected)"

// cloudInitSchema runs `cloud-init schema -c FILE` with the system python, as
// a pyenv or virtualenv python lacks cloud-init's modules.
func cloudInitSchema(t *testing.T, file string) (string, int) {
	t.Helper()
	host.RequireCommands(t, "cloud-init", "/usr/bin/python3")
	script, _ := exec.LookPath("cloud-init")
	cmd := exec.Command("/usr/bin/python3", script, "schema", "-c", file)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatalf("running cloud-init schema: %v", err)
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

func cloudConfigs(t *testing.T) []string {
	var out []string
	for _, rel := range exampleConfigs(t) {
		if bytes.HasPrefix(readRepo(t, rel), []byte("#cloud-config\n")) {
			out = append(out, rel)
		}
	}
	if len(out) == 0 {
		t.Fatal("no #cloud-config example found")
	}
	return out
}

// TestCloudConfigsPassCloudInitSchema checks every #cloud-config example with
// the installed cloud-init. Every key but corium must pass on its own; the
// whole file must pass, or fail with nothing but the unknown corium key.
func TestCloudConfigsPassCloudInitSchema(t *testing.T) {
	for _, rel := range cloudConfigs(t) {
		t.Run(rel, func(t *testing.T) {
			data := readRepo(t, rel)
			rest, hadCorium := withoutCorium(t, data)
			if hadCorium {
				file := filepath.Join(t.TempDir(), "without-corium.yaml")
				if err := os.WriteFile(file, rest, 0o600); err != nil {
					t.Fatal(err)
				}
				if out, code := cloudInitSchema(t, file); code != 0 {
					t.Errorf("cloud-init rejects the example's own cloud-init keys: exit %d\n%s", code, out)
				}
			}
			out, code := cloudInitSchema(t, filepath.Join(repo, rel))
			switch {
			case code == 0:
			case hadCorium && onlyUnknownCorium(out):
				t.Logf("this cloud-init names the corium: key as unknown (a warning at boot): %s", strings.TrimSpace(out))
			default:
				t.Errorf("cloud-init schema -c %s: exit %d\n%s", rel, code, out)
			}
		})
	}
}

// TestCloudInitSchemaCatchesAMistake is the control: the harness above must
// see cloud-init reject a wrong value in one of its own keys.
func TestCloudInitSchemaCatchesAMistake(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bad.yaml")
	bad := "#cloud-config\nssh_authorized_keys: 42\n"
	if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := cloudInitSchema(t, file)
	if code == 0 || !strings.Contains(out, "ssh_authorized_keys") {
		t.Errorf("cloud-init accepted ssh_authorized_keys: 42 (exit %d):\n%s", code, out)
	}
	if onlyUnknownCorium(out) {
		t.Errorf("a mistake elsewhere was taken for the corium key:\n%s", out)
	}
}

// onlyUnknownCorium says whether cloud-init's errors are exactly the unknown
// corium key: its one error line, listing nothing else.
func onlyUnknownCorium(out string) bool {
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, "Error: Cloud config schema errors: "); ok {
			return strings.TrimSpace(rest) == unknownCorium
		}
	}
	return false
}

// withoutCorium is the cloud-config with its corium: key removed, and
// whether it had one.
func withoutCorium(t *testing.T, data []byte) ([]byte, bool) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	top := doc.Content[0]
	for i := 0; i < len(top.Content); i += 2 {
		if top.Content[i].Value == "corium" {
			top.Content = append(top.Content[:i], top.Content[i+2:]...)
			out, err := yaml.Marshal(top)
			if err != nil {
				t.Fatal(err)
			}
			return append([]byte("#cloud-config\n"), out...), true
		}
	}
	return data, false
}

// TestMisplacedHeaderAsCloudInitSeesIt: a byte order mark before
// #cloud-config, or a modeline above it, makes cloud-init ignore the file,
// and its schema says so in one line; the agent agrees, in one finding
// naming the mark or the header's line, where it read the file as a
// standalone block and gave three unrelated ones.
func TestMisplacedHeaderAsCloudInitSeesIt(t *testing.T) {
	const doc = "#cloud-config\npackages: [vim]\ncorium:\n  role: single\n"
	dir := t.TempDir()
	for name, tc := range map[string]struct{ text, says string }{
		"bom.yaml":      {"\ufeff" + doc, "1:1: the file starts with a byte order mark"},
		"modeline.yaml": {"# vim: syntax=yaml\n" + doc, "2:1: #cloud-config is on line 2"},
	} {
		file := filepath.Join(dir, name)
		if err := os.WriteFile(file, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		out, code := cloudInitSchema(t, file)
		if code == 0 || !strings.Contains(out, `needs to begin with "#cloud-config"`) {
			t.Errorf("%s: cloud-init schema exit %d: %s", name, code, out)
		}
		out, code = runAgent(t, "validate", file)
		if code != 1 || !strings.HasSuffix(out, file+": invalid: 1 error\n") || strings.Count(out, "\n") != 2 || !strings.Contains(out, file+":"+tc.says) {
			t.Errorf("%s: the agent says (exit %d):\n%s", name, code, out)
		}
	}
}
