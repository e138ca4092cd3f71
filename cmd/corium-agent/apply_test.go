package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

const demo = "../../examples/demo"

func noDemoSecrets(t *testing.T, secrets []string, outputs map[string]string) {
	t.Helper()
	if len(secrets) < 5 {
		t.Fatalf("want the demo's 5 secrets, have %d", len(secrets))
	}
	for name, out := range outputs {
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s holds a secret value (%s...)", name, s[:4])
			}
		}
	}
}

func demoArgs(cmd, root string, extra ...string) []string {
	return append([]string{cmd, "--root", root, "--config", filepath.Join(demo, "config.yaml"), "--facts", filepath.Join(demo, "facts.json")}, extra...)
}

func readStatus(t *testing.T, root string) (*status.Status, string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, status.Path))
	if err != nil {
		t.Fatalf("status file: %v", err)
	}
	var st status.Status
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	return &st, string(b)
}

// mtimes lists every path under root with its modification time.
func mtimes(t *testing.T, root string) map[string]time.Time {
	t.Helper()
	out := map[string]time.Time{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := os.Lstat(p); err == nil {
				out[p] = info.ModTime()
			}
		}
		return nil
	})
	return out
}

func TestApplyAndPlanCLI(t *testing.T) {
	secrets := fixture.DemoSecrets(t, demo)
	root := fixture.DemoRoot(t, demo)
	outputs := map[string]string{}

	// plan first: it changes nothing.
	before := mtimes(t, root)
	code, out, errOut := runCLI(t, demoArgs("plan", root, "--full")...)
	if code != exitOK || !strings.Contains(out, "created   /etc/k0s/k0s.yaml") || !strings.Contains(out, "PrivateKey = [redacted]") {
		t.Fatalf("plan: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(out, "k0s-install k0scontroller.service k0s install controller") {
		t.Errorf("plan lacks the k0s install command:\n%s", out)
	}
	if after := mtimes(t, root); len(after) != len(before) {
		t.Errorf("plan wrote files: %d before, %d after", len(before), len(after))
	}
	outputs["plan stdout"], outputs["plan stderr"] = out, errOut
	code, out, errOut = runCLI(t, demoArgs("plan", root, "--format", "json")...)
	if code != exitOK {
		t.Fatalf("plan json: exit %d: %s", code, errOut)
	}
	var rep struct {
		Steps []struct {
			Name  string
			Files []struct{ Path, Mode, Change string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Steps) < 8 {
		t.Fatalf("plan json: %v, %d steps:\n%s", err, len(rep.Steps), out)
	}
	outputs["plan json"], outputs["plan json stderr"] = out, errOut

	code, out, errOut = runCLI(t, demoArgs("apply", root)...)
	if code != exitOK || !strings.Contains(out, "outcome: provisioned") {
		t.Fatalf("apply: exit %d\n%s\n%s", code, out, errOut)
	}
	st, raw := readStatus(t, root)
	if st.Outcome != status.Provisioned || st.Provenance == nil || st.Validation == nil || !st.Validation.Valid || st.NodeAddress.Address != "10.10.0.1" || len(st.Steps) < 9 {
		t.Errorf("status: %s", raw)
	}
	outputs["apply stdout"], outputs["apply stderr"], outputs["status"] = out, errOut, raw
	for _, p := range []string{status.MarkerPath, status.AppliedPath, "/etc/k0s/k0s.yaml", "/etc/wireguard/wg0.conf"} {
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("%s missing after apply", p)
		}
	}

	// plan after apply: secret files compare as unchanged without
	// resolving anything, and nothing leaks from the files on disk.
	code, out, errOut = runCLI(t, demoArgs("plan", root)...)
	if code != exitOK || !strings.Contains(out, "unchanged /etc/wireguard/wg0.conf") || !strings.Contains(out, "unchanged /etc/k0s/k0s.yaml") {
		t.Errorf("plan after apply: exit %d\n%s", code, out)
	}
	outputs["plan after apply"] = out + errOut
	edited := filepath.Join(t.TempDir(), "c.yaml")
	data, _ := os.ReadFile(filepath.Join(demo, "config.yaml"))
	_ = os.WriteFile(edited, []byte(strings.Replace(string(data), "51821\n    mtu: 1380", "51822\n    mtu: 1380", 1)), 0o600)
	code, out, errOut = runCLI(t, "plan", "--full", "--root", root, "--config", edited, "--facts", filepath.Join(demo, "facts.json"))
	if code != exitOK || !strings.Contains(out, "- ListenPort = 51821") || !strings.Contains(out, "+ ListenPort = 51822") {
		t.Errorf("plan diff of a changed interface:\n%s", out)
	}
	outputs["plan diff"] = out + errOut

	before = mtimes(t, root)
	code, out, errOut = runCLI(t, demoArgs("apply", root)...)
	if code != exitOK || !strings.Contains(out, "nothing to do") {
		t.Errorf("second apply: exit %d\n%s\n%s", code, out, errOut)
	}
	after := mtimes(t, root)
	for p, m := range before {
		if p != filepath.Join(root, status.Path) && !after[p].Equal(m) {
			t.Errorf("second apply touched %s", p)
		}
	}
	st, raw = readStatus(t, root)
	if st.Outcome != status.NothingToDo {
		t.Errorf("second status: %s", raw)
	}
	outputs["second apply"] = out + errOut + raw

	noDemoSecrets(t, secrets, outputs)
}

func TestApplyCLIFailureLeavesStatusAndNoMarker(t *testing.T) {
	secrets := fixture.DemoSecrets(t, demo)
	root := fixture.DemoRoot(t, demo)
	if err := os.Remove(filepath.Join(root, "run/corium/secrets/join-token")); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, demoArgs("apply", root)...)
	if code != exitFailed {
		t.Fatalf("apply without its join token: exit %d\n%s", code, out)
	}
	if !strings.Contains(errOut, "join.tokenFrom") {
		t.Errorf("error does not name the field:\n%s", errOut)
	}
	st, raw := readStatus(t, root)
	if st.Outcome != status.Failed || !strings.Contains(st.Error, "join.tokenFrom") {
		t.Errorf("status: %s", raw)
	}
	if rootfs.New(root).Exists(status.MarkerPath) || rootfs.New(root).Exists("/etc/wireguard/wg0.conf") {
		t.Error("a run whose secrets failed wrote files")
	}
	noDemoSecrets(t, secrets, map[string]string{"stdout": out, "stderr": errOut, "status": raw})
}

func TestApplyCLIUsage(t *testing.T) {
	if code, _, _ := runCLI(t, "apply", "--bogus"); code != exitUsage {
		t.Errorf("bad flag: exit %d", code)
	}
	if code, _, _ := runCLI(t, "apply", "--root", "/nonexistent/dir"); code != exitUsage {
		t.Errorf("missing root: exit %d", code)
	}
	if code, _, _ := runCLI(t, "plan", "--format", "yaml"); code != exitUsage {
		t.Errorf("bad format: exit %d", code)
	}
}

func TestApplyCLINoConfigIsUnconfigured(t *testing.T) {
	root := t.TempDir()
	code, out, _ := runCLI(t, "apply", "--root", root)
	if code != exitOK || !strings.Contains(out, "unconfigured") {
		t.Errorf("no source: exit %d\n%s", code, out)
	}
	st, _ := readStatus(t, root)
	if st.Outcome != status.Unconfigured || st.Provenance == nil || len(st.Provenance.Tried) != 4 {
		t.Errorf("status: %+v", st)
	}
}

func TestApplyAgainCLIRefusesNamingTheField(t *testing.T) {
	root := fixture.DemoRoot(t, demo)
	if code, out, errOut := runCLI(t, demoArgs("apply", root)...); code != exitOK {
		t.Fatalf("apply: %d\n%s%s", code, out, errOut)
	}
	before := mtimes(t, root)
	data, _ := os.ReadFile(filepath.Join(demo, "config.yaml"))
	edited := filepath.Join(t.TempDir(), "c.yaml")
	_ = os.WriteFile(edited, []byte(strings.Replace(string(data), "name: demo\n", "name: renamed\n", 1)), 0o600)
	code, out, errOut := runCLI(t, "apply", "--again", "--root", root, "--config", edited, "--facts", filepath.Join(demo, "facts.json"))
	if code != exitFailed || !strings.Contains(out, "refused: cluster.name: was demo, now renamed") || !strings.Contains(errOut, "cluster.name") {
		t.Errorf("--again with a renamed cluster: exit %d\n%s\n%s", code, out, errOut)
	}
	after := mtimes(t, root)
	for p, m := range before {
		if p != filepath.Join(root, status.Path) && !after[p].Equal(m) {
			t.Errorf("a refused run touched %s", p)
		}
	}
	st, _ := readStatus(t, root)
	if st.Outcome != status.Refused || len(st.Refusals) != 1 {
		t.Errorf("status: %+v", st)
	}
}
