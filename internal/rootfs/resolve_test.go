package rootfs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestResolveFollowsLinksInsideTheRoot(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	must(t, os.MkdirAll(filepath.Join(dir, "var/lib/cloud/instances/i-1"), 0o755))
	must(t, os.WriteFile(filepath.Join(dir, "var/lib/cloud/instances/i-1/cloud-config.txt"), []byte("node"), 0o644))
	// cloud-init's own link is absolute: on the node it means the node's /var.
	must(t, os.Symlink("/var/lib/cloud/instances/i-1", filepath.Join(dir, "var/lib/cloud/instance")))
	must(t, os.Symlink("../instances/i-1/cloud-config.txt", filepath.Join(dir, "var/lib/cloud/instances/rel")))
	must(t, os.Symlink("/etc/hostname", filepath.Join(dir, "escape")))
	must(t, os.Symlink("loop", filepath.Join(dir, "loop")))

	for _, tc := range []struct{ node, want string }{
		{"/var/lib/cloud/instance/cloud-config.txt", "node"},
		{"/var/lib/cloud/instances/rel", "node"},
		{"/../../var/lib/cloud/instance/../instance/cloud-config.txt", "node"},
	} {
		got, err := r.ReadFile(tc.node)
		if err != nil || string(got) != tc.want {
			t.Errorf("ReadFile(%s) = %q, %v; want %q", tc.node, got, err, tc.want)
		}
	}
	// An absolute link must land under the root, never on the host's file.
	if got := r.Resolve("/escape"); got != filepath.Join(dir, "etc/hostname") {
		t.Errorf("Resolve(/escape) = %s, want it under the root", got)
	}
	if _, err := r.ReadFile("/escape"); !os.IsNotExist(err) {
		t.Errorf("ReadFile(/escape) = %v, want not-exist (the node has no /etc/hostname)", err)
	}
	if _, err := r.ReadFile("/loop"); err == nil {
		t.Error("a symlink loop was read")
	}
	// Path leaves the last link alone, so writes replace links like rename(2).
	if got := r.Path("/var/lib/cloud/instance"); got != filepath.Join(dir, "var/lib/cloud/instance") {
		t.Errorf("Path followed the last link: %s", got)
	}
	if got := r.Path("/var/lib/cloud/instance/x"); got != filepath.Join(dir, "var/lib/cloud/instances/i-1/x") {
		t.Errorf("Path did not follow a directory link: %s", got)
	}
}

func TestResolveOnTheHostIsThePathItself(t *testing.T) {
	if got := New("/").Resolve("/var/../etc/./hostname"); got != "/etc/hostname" {
		t.Errorf("Resolve on / = %s", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
