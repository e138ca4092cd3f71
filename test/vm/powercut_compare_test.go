package vm

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPowerCutCompare runs the power cut's reading of owned files on a tree
// of the host's (the same script guestd runs in the guest) and checks the
// comparison: two copies of one tree match; a file cut short, a link
// changed, a file gone, a file added beside them and a temp file left by a
// cut write are each named. No VM: it is TestVMPowerCut's negative control
// taken apart.
func TestPowerCutCompare(t *testing.T) {
	make := func(dir string) []string {
		for _, f := range []struct{ path, text string }{
			{"/etc/wireguard/wg0.conf", "[Interface]\nPrivateKey = x\n"},
			{"/var/lib/corium/applied.yaml", "role: controller+worker\n"},
			{"/var/lib/corium/provisioned", "provisioned\n"},
			{"/var/lib/corium/run-started", "{}\n"},
			{"/etc/motd", "hello\n"},
		} {
			if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(f.path)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, f.path), []byte(f.text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink("/usr/lib/systemd/system/wg-quick@.service", filepath.Join(dir, "/etc/wireguard/link")); err != nil {
			t.Fatal(err)
		}
		var paths []string
		for _, p := range []string{"/etc/wireguard/wg0.conf", "/etc/wireguard/link", "/var/lib/corium/applied.yaml", "/var/lib/corium/provisioned", "/etc/hostname"} {
			paths = append(paths, dir+p)
		}
		return paths
	}
	read := func(paths []string) owned {
		t.Helper()
		dirs := map[string]bool{}
		var list []string
		for _, p := range paths {
			if d := filepath.Dir(p); !dirs[d] {
				dirs[d] = true
				list = append(list, d)
			}
		}
		args := append(append(append([]string{"-c", ownedScript, "sh"}, paths...), "--"), list...)
		out, err := exec.Command("sh", args...).CombinedOutput()
		if err != nil {
			t.Fatalf("the owned-files script: %v\n%s", err, out)
		}
		return parseOwned(string(out), list)
	}
	// As the guest's paths, so the records aside are recognised.
	strip := func(o owned, dir string) owned {
		n := owned{Files: map[string]string{}, Dirs: map[string][]string{}}
		for k, v := range o.Files {
			n.Files[strings.TrimPrefix(k, dir)] = v
		}
		for k, v := range o.Dirs {
			n.Dirs[strings.TrimPrefix(k, dir)] = v
		}
		return n
	}
	a, b := t.TempDir(), t.TempDir()
	want := strip(read(make(a)), a)
	pathsB := make(b)
	if d := compareOwned(want, strip(read(pathsB), b)); len(d) != 0 {
		t.Fatalf("two copies of one tree differ: %q", d)
	}
	if st := want.Files["/etc/hostname"]; st != "missing" {
		t.Errorf("a missing path reads %q, want missing", st)
	}

	if err := os.Truncate(filepath.Join(b, "/var/lib/corium/applied.yaml"), 4); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(b, "/etc/wireguard/link"))
	if err := os.Symlink("/elsewhere", filepath.Join(b, "/etc/wireguard/link")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(b, "/var/lib/corium/provisioned"))
	for _, p := range []string{"/etc/wireguard/wg1.conf", "/var/lib/corium/.applied.yaml.tmp-123", "/etc/.hostname.tmp-7", "/etc/issue"} {
		if err := os.WriteFile(filepath.Join(b, p), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(b, "/var/lib/corium/run-started"))
	got := strings.Join(compareOwned(want, strip(read(pathsB), b)), "\n")
	for _, w := range []string{
		"/var/lib/corium/applied.yaml: file mode 600, 4 bytes",
		"/etc/wireguard/link: link /elsewhere, want link /usr/lib/systemd/system/wg-quick@.service",
		"/var/lib/corium/provisioned: missing, want file mode 600, 12 bytes",
		"/var/lib/corium/provisioned: on the reference, not here",
		"/etc/wireguard/wg1.conf: extra, not on the reference",
		"/var/lib/corium/.applied.yaml.tmp-123: a temp file of a cut write is left",
		"/etc/.hostname.tmp-7: a temp file of a cut write is left",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("the comparison does not name %q:\n%s", w, got)
		}
	}
	// /etc holds more than the agent's files: only a temp file counts
	// there; the run record is aside.
	for _, w := range []string{"/etc/issue", "/etc/motd", "run-started"} {
		if strings.Contains(got, w) {
			t.Errorf("the comparison names %s, which it leaves aside:\n%s", w, got)
		}
	}
}
