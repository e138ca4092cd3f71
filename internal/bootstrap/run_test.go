package bootstrap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

func demoOptions(root rootfs.Root, log *bytes.Buffer) Options {
	o := Options{
		Root:       root,
		ConfigFile: filepath.Join(demoDir, "config.yaml"),
		FactsFile:  filepath.Join(demoDir, "facts.json"),
		Resolver:   fileResolver{root},
	}
	if log != nil {
		o.Log = testLogger(log)
	}
	return o
}

func TestApplyRootProducesTheTree(t *testing.T) {
	root := newDemoRoot(t)
	live := &applytest.RecordingLive{}
	o := demoOptions(root, nil)
	o.Live, o.LiveUnderRoot = live, true
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	if st.Outcome != status.Provisioned {
		t.Fatalf("outcome %s", st.Outcome)
	}
	for _, want := range []struct {
		path string
		mode fs.FileMode
	}{
		{"/etc/wireguard/wg0.conf", 0o600},
		{"/etc/wireguard/wg1.conf", 0o600},
		{"/etc/wireguard", fs.ModeDir | 0o700},
		{"/etc/systemd/system/k0scontroller.service.d/10-corium-wireguard.conf", 0o644},
		{"/etc/systemd/system/k0scontroller.service.d/10-corium-agent.conf", 0o644},
		{"/etc/k0s/k0s.yaml", 0o600},
		{"/etc/k0s/join-token", 0o600},
		{"/etc/k0s", fs.ModeDir | 0o700},
		{"/etc/hostname", 0o644},
		{firewall.FilePath, firewall.FileMode},
		{status.AppliedPath, 0o600},
		{status.MarkerPath, 0o644},
		{"/var/lib/corium", fs.ModeDir | 0o700},
	} {
		info, err := root.Lstat(want.path)
		if err != nil {
			t.Errorf("%s: %v", want.path, err)
			continue
		}
		if got := info.Mode() & (fs.ModeDir | fs.ModePerm); got != want.mode {
			t.Errorf("%s: mode %v, want %v", want.path, got, want.mode)
		}
	}
	link, err := root.Readlink("/etc/systemd/system/multi-user.target.wants/wg-quick@wg0.service")
	if err != nil || link != "/usr/lib/systemd/system/wg-quick@.service" {
		t.Errorf("wg-quick@wg0 not enabled: %q %v", link, err)
	}
	token, _ := root.ReadFile("/etc/k0s/join-token")
	if string(token) != fixture.ControllerJoinToken("")+"\n" { // the demo's token file
		t.Errorf("join token file holds %q", token)
	}
	k0s, _ := root.ReadFile("/etc/k0s/k0s.yaml")
	for _, want := range []string{"address: 10.10.0.1", "peerAddress: 10.10.0.1", "authPass: dmrp4Zq7", "unicastSourceIP: 192.0.2.11", "overlay-type: full", "mtu: 1400"} {
		if !strings.Contains(string(k0s), want) {
			t.Errorf("k0s.yaml lacks %q:\n%s", want, k0s)
		}
	}
	host, _ := root.ReadFile("/etc/hostname")
	if string(host) != "demo-c1\n" {
		t.Errorf("/etc/hostname = %q", host)
	}

	// The live actions a host would have performed, in order: every unit
	// file is written before the one reload that may be needed, and none
	// follows k0s install, which reloads by itself.
	want := []string{
		"daemon-reload wg-quick@wg0.service wg-quick@wg1.service k0scontroller.service",
		"restart wg-quick@wg0.service",
		"verify-wireguard wg-quick@wg0.service wg0",
		"hostname demo-c1",
		"firewall",
		"k0s-install k0scontroller.service k0s install controller --config /etc/k0s/k0s.yaml --enable-worker --no-taints --token-file /etc/k0s/join-token --kubelet-extra-args=--node-ip=10.10.0.1 --labels=corium.dev/site=lab",
		"queue-start k0scontroller.service",
	}
	text := live.Text()
	if n := strings.Count(text, "daemon-reload"); n != 1 {
		t.Errorf("%d reloads, want the one asked about:\n%s", n, text)
	}
	last := -1
	for _, w := range want {
		i := strings.Index(text, w)
		if i < 0 {
			t.Errorf("live actions lack %q:\n%s", w, text)
			continue
		}
		if i < last {
			t.Errorf("%q out of order:\n%s", w, text)
		}
		last = i
	}
}

func TestSecondRunChangesNothing(t *testing.T) {
	root := newDemoRoot(t)
	if _, err := Run(context.Background(), demoOptions(root, nil)); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)

	var log bytes.Buffer
	st, err := Run(context.Background(), demoOptions(root, &log))
	if err != nil || st.Outcome != status.NothingToDo {
		t.Fatalf("second run: %v, outcome %s", err, st.Outcome)
	}
	if !strings.Contains(log.String(), "nothing to do") {
		t.Errorf("second run does not say so:\n%s", log.String())
	}
	after := snapshot(t, root)
	for p, b := range before {
		if a := after[p]; a != b {
			t.Errorf("%s changed on the second run", p)
		}
	}

	// Without the marker the whole plan runs again and still writes nothing
	// and restarts nothing.
	if _, err := root.Remove(status.MarkerPath); err != nil {
		t.Fatal(err)
	}
	live := &applytest.RecordingLive{}
	o := demoOptions(root, nil)
	o.Live, o.LiveUnderRoot = live, true
	st, err = Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range st.Steps {
		for _, f := range s.Files {
			if f.Change != string(rootfs.Unchanged) && f.Path != status.MarkerPath {
				t.Errorf("re-run %s %s", f.Change, f.Path)
			}
		}
	}
	// No unit file changed, so the reload is not even asked about; k0s
	// install reloads by itself.
	if strings.Contains(live.Text(), "restart ") || strings.Contains(live.Text(), "daemon-reload") {
		t.Errorf("re-run restarted or reloaded for unchanged files:\n%s", live.Text())
	}
	after = snapshot(t, root)
	for p, b := range before {
		if p == status.MarkerPath {
			continue
		}
		if a := after[p]; a != b {
			t.Errorf("%s rewritten by a re-run over the same root", p)
		}
	}
}

var errInterrupted = errors.New("interrupted by the test")

func TestInterruptedRunConverges(t *testing.T) {
	ref := newDemoRoot(t)
	writes := 0
	o := demoOptions(ref, nil)
	o.AfterWrite = func(string) error { writes++; return nil }
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	want := snapshot(t, ref)
	if writes < 10 {
		t.Fatalf("only %d write steps counted", writes)
	}
	for n := 1; n <= writes; n++ {
		root := newDemoRoot(t)
		o := demoOptions(root, nil)
		count := 0
		var last string
		o.AfterWrite = func(p string) error {
			count++
			last = p
			if count == n {
				return errInterrupted
			}
			return nil
		}
		st, err := Run(context.Background(), o)
		if !errors.Is(err, errInterrupted) || st.Outcome != status.Failed {
			t.Fatalf("write %d: run not interrupted: %v", n, err)
		}
		if last != status.MarkerPath && root.Exists(status.MarkerPath) {
			t.Fatalf("write %d (%s): marker exists after an interrupted run", n, last)
		}
		if _, err := Run(context.Background(), demoOptions(root, nil)); err != nil {
			t.Fatalf("write %d (%s): re-run: %v", n, last, err)
		}
		sameTree(t, want, snapshot(t, root))
	}
	t.Logf("interrupted after each of %d writes; every re-run converged", writes)
}

func TestMarkerIsLastWrite(t *testing.T) {
	root := newDemoRoot(t)
	o := demoOptions(root, nil)
	var order []string
	o.AfterWrite = func(p string) error { order = append(order, p); return nil }
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if order[len(order)-1] != status.MarkerPath {
		t.Errorf("last write is %s, want the marker; order: %v", order[len(order)-1], order)
	}
}

func TestInvalidConfigTouchesNothing(t *testing.T) {
	root := newDemoRoot(t)
	before := snapshot(t, root)
	cfg := filepath.Join(t.TempDir(), "bad.yaml")
	data, _ := os.ReadFile(filepath.Join(demoDir, "config.yaml"))
	bad := strings.Replace(string(data), "listenPort: 51821", "listenPort: 70000", 1)
	bad = strings.Replace(bad, "role: controller+worker", "role: controler", 1)
	if err := os.WriteFile(cfg, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	o := demoOptions(root, nil)
	o.ConfigFile = cfg
	st, err := Run(context.Background(), o)
	if err == nil || st.Outcome != status.Failed {
		t.Fatalf("invalid config applied: %v", err)
	}
	for _, field := range []string{"role", "wireguard[1].listenPort"} {
		if !strings.Contains(err.Error(), field) {
			t.Errorf("error does not name %s: %v", field, err)
		}
	}
	if st.Validation == nil || st.Validation.Valid || len(st.Validation.Errors) < 2 {
		t.Errorf("status validation: %+v", st.Validation)
	}
	sameTree(t, before, snapshot(t, root))
}

func TestNoSecretInAnyOutput(t *testing.T) {
	secrets := demoSecrets(t)
	root := newDemoRoot(t)
	var log bytes.Buffer
	o := demoOptions(root, &log)
	live := &applytest.RecordingLive{}
	o.Live, o.LiveUnderRoot = live, true
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	statusFile, _ := root.ReadFile(status.Path)
	applied, _ := root.ReadFile(status.AppliedPath)
	js, _ := json.Marshal(st)

	// A failing run too: its error and status must not leak either.
	root2 := newDemoRoot(t)
	o2 := demoOptions(root2, &log)
	o2.Live, o2.LiveUnderRoot = &applytest.RecordingLive{Fail: "k0s-install", Err: errors.New("k0s exploded")}, true
	st2, err2 := Run(context.Background(), o2)
	if err2 == nil {
		t.Fatal("the failing run succeeded")
	}
	js2, _ := json.Marshal(st2)

	outputs := map[string]string{
		"log":            log.String(),
		"status":         string(statusFile),
		"status json":    string(js),
		"failed status":  string(js2),
		"failed error":   err2.Error(),
		"applied.yaml":   string(applied),
		"live actions":   live.Text(),
		"node-address":   string(mustRead(root, status.NodeAddressPath)),
		"firewall.json":  string(mustRead(root, firewall.FilePath)),
		"drop-in":        string(mustRead(root, "/etc/systemd/system/k0scontroller.service.d/10-corium-agent.conf")),
		"wg drop-in":     string(mustRead(root, "/etc/systemd/system/k0scontroller.service.d/10-corium-wireguard.conf")),
		"hostname":       string(mustRead(root, "/etc/hostname")),
		"provisioned":    string(mustRead(root, status.MarkerPath)),
		"status (again)": "",
	}
	for name, out := range outputs {
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("%s contains the secret %q…", name, s[:4])
			}
		}
	}
	if !strings.Contains(string(applied), "privateKeyFrom") || !strings.Contains(string(applied), "/run/corium/secrets/wg0.key") {
		t.Errorf("applied.yaml lost the secret references:\n%s", applied)
	}
}

func mustRead(root rootfs.Root, p string) []byte {
	b, _ := root.ReadFile(p)
	return b
}

func TestLiveActionsSkippedUnderARoot(t *testing.T) {
	root := newDemoRoot(t)
	live := &applytest.RecordingLive{}
	o := demoOptions(root, nil)
	o.Live = live // without LiveUnderRoot: a root other than / never acts
	st, err := Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	if live.Text() != "" {
		t.Errorf("live actions performed under %s:\n%s", root.Dir(), live.Text())
	}
	n := 0
	for _, s := range st.Steps {
		for _, a := range s.Actions {
			n++
			if !strings.HasPrefix(a.Outcome, "skipped: root is "+root.Dir()) {
				t.Errorf("%s %s: outcome %q", a.Kind, a.Unit, a.Outcome)
			}
		}
	}
	if n < 10 {
		t.Errorf("only %d actions listed", n)
	}
}

func TestFailedLiveActionStopsBeforeTheMarker(t *testing.T) {
	root := newDemoRoot(t)
	o := demoOptions(root, nil)
	o.Live, o.LiveUnderRoot = &applytest.RecordingLive{Fail: "verify-wireguard wg-quick@wg1", Err: errors.New("public key mismatch")}, true
	st, err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "public key mismatch") {
		t.Fatalf("want the verification failure, got %v", err)
	}
	if root.Exists("/etc/k0s/k0s.yaml") || root.Exists(status.MarkerPath) {
		t.Error("k0s configured or marker written although the overlay check failed")
	}
	// The whole node is rendered before the first write; the steps after
	// the failed one are listed as not run.
	failed := -1
	for i, s := range st.Steps {
		switch {
		case s.Outcome == status.StepFailed && failed < 0:
			failed = i
			if s.Name != render.StepWireGuard {
				t.Errorf("step %s failed, want the wireguard step", s.Name)
			}
		case failed >= 0 && s.Outcome != status.StepNotRun:
			t.Errorf("step %s after the failure: %s, want not run", s.Name, s.Outcome)
		}
	}
	if failed < 0 {
		t.Errorf("no step failed: %+v", st.Steps)
	}
}

func TestInlineSecretsAreRedactedInTheRecord(t *testing.T) {
	data, err := os.ReadFile("../../testdata/render/k0s/controller-worker-calico-overlay/config.yaml")
	if err != nil {
		t.Fatal(err)
	}
	token := fixture.ControllerJoinToken("fake00.inlinerecord0000")
	const key = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(cfg, append(data, []byte("join: {token: "+token+"}\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	root := rootfs.New(t.TempDir())
	var log bytes.Buffer
	st, err := Run(context.Background(), Options{Root: root, ConfigFile: cfg, Resolver: fileResolver{root}, Log: testLogger(&log)})
	if err != nil {
		t.Fatal(err)
	}
	applied := string(mustRead(root, status.AppliedPath))
	if !strings.Contains(applied, "privateKey: '[redacted]'") && !strings.Contains(applied, `privateKey: "[redacted]"`) {
		t.Errorf("inline key not shown as [redacted]:\n%s", applied)
	}
	js, _ := json.Marshal(st)
	for name, out := range map[string]string{"applied.yaml": applied, "log": log.String(), "status": string(js)} {
		if strings.Contains(out, token) || strings.Contains(out, key) {
			t.Errorf("%s holds an inline secret", name)
		}
	}
	if got := string(mustRead(root, render.JoinTokenPath)); got != token+"\n" {
		t.Errorf("join token file %q", got)
	}
}

// What k0s would refuse at install is refused before the first write: a
// resolved VRRP password over 8 characters fails the run with the tree as
// it was (the status file of the run aside), naming the field and its
// source, never the password.
func TestRefusedBeforeTheFirstWrite(t *testing.T) {
	root := newDemoRoot(t)
	const long = "vrrp-password-too-long"
	if _, err := root.WriteFile("/run/corium/secrets/vrrp-pass", []byte(long+"\n"), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)
	st, err := Run(context.Background(), demoOptions(root, nil))
	if err == nil || !strings.Contains(err.Error(), "ha.authPassFrom: the password read from /run/corium/secrets/vrrp-pass is 22 bytes") {
		t.Fatalf("got %v", err)
	}
	if strings.Contains(err.Error(), long) || strings.Contains(st.Error, long) {
		t.Errorf("the refusal shows the password")
	}
	sameTree(t, before, snapshot(t, root))
}
