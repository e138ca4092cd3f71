package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// pinnedDemoRoot is the demo's root booted with its document pinned on the
// kernel command line (corium.config=/run/corium/node.yaml) and user-data
// holding the block cloudInit ("" for none).
func pinnedDemoRoot(t *testing.T, cloudInit string) (root, pin string) {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join(demo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(doc)
	pin = hex.EncodeToString(sum[:])
	root = fixture.DemoRoot(t, demo)
	files := map[string]string{
		"/run/corium/node.yaml": string(doc),
		"/proc/cmdline":         "BOOT_IMAGE=/vmlinuz corium.config=/run/corium/node.yaml corium.config.sha256=" + pin + " quiet\n",
	}
	if cloudInit != "" {
		files["/var/lib/cloud/instance/cloud-config.txt"] = cloudInit
	}
	for p, content := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root, pin
}

// A forged user-data block beside a pinned document stops apply before a
// single file is written, naming both sources; the status and status
// command say the pin was in play. The same root without the block runs the
// pinned document.
func TestApplyPinConflictWritesNothing(t *testing.T) {
	root, pin := pinnedDemoRoot(t, resolveEmbedded(resolveSecretDoc("forged")))
	args := []string{"apply", "--root", root, "--facts", filepath.Join(demo, "facts.json")}
	before := mtimes(t, root)
	code, out, errOut := runCLI(t, args...)
	if code != exitFailed {
		t.Fatalf("apply with a conflicting user-data block: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{"cloud-init's user-data", "corium.config=/run/corium/node.yaml with corium.config.sha256=" + pin, "remove the corium: key"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if !strings.Contains(out, "source: none (the kernel command line pins sha256 "+pin) {
		t.Errorf("stdout does not say the pin was in play:\n%s", out)
	}
	after := mtimes(t, root)
	statusFile := filepath.Join(root, status.Path)
	for p, m := range after {
		if was, ok := before[p]; p != statusFile && (!ok || !was.Equal(m)) {
			t.Errorf("the conflicting run wrote %s", p)
		}
	}
	if rootfs.New(root).Exists(status.MarkerPath) {
		t.Error("the conflicting run left the marker")
	}
	st, raw := readStatus(t, root)
	if st.Outcome != status.Failed || st.Provenance == nil || st.Provenance.Pin != pin || st.Provenance.Source != "" {
		t.Fatalf("status: %s", raw)
	}
	if last := st.Provenance.Tried[len(st.Provenance.Tried)-1]; last.Source != "cloud-init" || last.Outcome != "failed" {
		t.Errorf("tried %+v, want cloud-init failed last", st.Provenance.Tried)
	}
	_, text, _ := runCLI(t, "status", "--root", root)
	if !strings.Contains(text, "the kernel command line pins sha256 "+pin) || !strings.Contains(text, "tried cloud-init: failed (cloud-init's user-data") {
		t.Errorf("status does not show the pin and the conflict:\n%s", text)
	}
	resolveNoSecrets(t, out, errOut, raw, text)

	// The control: without the forged block the pinned document runs.
	if err := os.Remove(filepath.Join(root, "var/lib/cloud/instance/cloud-config.txt")); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut = runCLI(t, args...); code != exitOK || !strings.Contains(out, "source: cmdline (the kernel command line pins sha256 "+pin) {
		t.Fatalf("apply of the pinned document alone: exit %d\n%s\n%s", code, out, errOut)
	}
	if _, text, _ = runCLI(t, "status", "--root", root); !strings.Contains(text, "source:       cmdline (the kernel command line pins sha256 "+pin) {
		t.Errorf("status does not say which document ran and why:\n%s", text)
	}
}

// resolve shows the pin: its role in the source line, an earlier copy of
// the pinned document as ignored, a conflicting block as the failure.
func TestResolvePinned(t *testing.T) {
	doc := resolveSecretDoc("pinned")
	sum := sha256.Sum256([]byte(doc))
	pin := hex.EncodeToString(sum[:])
	line := "corium.config=/run/corium/node.yaml corium.config.sha256=" + pin + "\n"
	for _, tc := range []struct {
		name     string
		files    map[string]string
		code     int
		source   string
		outcomes string
		text     []string
	}{
		{"a copy of the pinned document is ignored", map[string]string{"/etc/corium/config.yaml": doc}, 0, "cmdline", "ignored absent used",
			[]string{"source: cmdline (the kernel command line pins sha256 " + pin + ": the node runs that document or nothing)",
				"- /etc/corium/config.yaml: ignored (holds the very document the kernel command line pins"}},
		{"another document is a conflict", map[string]string{"/etc/corium/config.yaml": resolveSecretDoc("other")}, 1, "", "failed",
			[]string{"source: none (a source failed; the chain stopped there)", "pin: the kernel command line pins sha256 " + pin,
				"- /etc/corium/config.yaml: failed (/etc/corium/config.yaml holds a corium block"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.files["/proc/cmdline"], tc.files["/run/corium/node.yaml"] = line, doc
			root := resolveRoot(t, tc.files)
			code, out, errOut := runCLI(t, "resolve", "--root", root, "--format", "json")
			r := decodeResolved(t, out)
			var got []string
			for _, a := range r.Tried {
				got = append(got, a.Outcome)
			}
			if code != tc.code || r.Source != tc.source || r.Pin != pin || strings.Join(got, " ") != tc.outcomes {
				t.Errorf("exit %d source %q pin %q tried %v, want %d %q %s %s\n%s", code, r.Source, r.Pin, got, tc.code, tc.source, pin, tc.outcomes, errOut)
			}
			_, text, terr := runCLI(t, "resolve", "--root", root)
			for _, want := range tc.text {
				if !strings.Contains(text, want) {
					t.Errorf("text lacks %q:\n%s", want, text)
				}
			}
			resolveNoSecrets(t, out, errOut, text, terr)
		})
	}
}
