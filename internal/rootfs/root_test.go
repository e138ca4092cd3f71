package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func TestLinksResolveInsideTheRoot(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	mustT(t, os.MkdirAll(filepath.Join(dir, "var/lib/cloud/instances/i-1"), 0o755))
	mustT(t, os.WriteFile(filepath.Join(dir, "var/lib/cloud/instances/i-1/cloud-config.txt"), []byte("node"), 0o644))
	// cloud-init's own link is absolute: on the node it means the node's /var.
	mustT(t, os.Symlink("/var/lib/cloud/instances/i-1", filepath.Join(dir, "var/lib/cloud/instance")))
	mustT(t, os.Symlink("../instances/i-1/cloud-config.txt", filepath.Join(dir, "var/lib/cloud/instances/rel")))
	mustT(t, os.Symlink("/etc/hostname", filepath.Join(dir, "escape")))
	mustT(t, os.Symlink("../../../../../../etc/hostname", filepath.Join(dir, "var/climb")))
	mustT(t, os.Symlink("loop", filepath.Join(dir, "loop")))

	for _, node := range []string{
		"/var/lib/cloud/instance/cloud-config.txt",
		"/var/lib/cloud/instances/rel",
		"/../../var/lib/cloud/instance/../instance/cloud-config.txt",
		"var/lib/cloud/instance/cloud-config.txt",
	} {
		got, err := r.ReadFile(node)
		if err != nil || string(got) != "node" {
			t.Errorf("ReadFile(%s) = %q, %v; want %q", node, got, err, "node")
		}
	}
	// The host has /etc/hostname; the node does not.
	for _, node := range []string{"/escape", "/var/climb", "/../etc/hostname"} {
		if _, err := r.ReadFile(node); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("ReadFile(%s) = %v, want not-exist (the node has no /etc/hostname)", node, err)
		}
	}
	if _, err := r.ReadFile("/loop"); !errors.Is(err, unix.ELOOP) || !strings.Contains(err.Error(), "/loop") {
		t.Errorf("ReadFile(/loop) = %v; want ELOOP naming /loop", err)
	}
	if info, err := r.Stat("/var/lib/cloud/instance"); err != nil || !info.IsDir() {
		t.Errorf("Stat follows the last link: %v, %v", info, err)
	}
	if info, err := r.Lstat("/var/lib/cloud/instance"); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat does not follow the last link: %v, %v", info, err)
	}
	if got, err := r.Readlink("/var/lib/cloud/instance"); err != nil || got != "/var/lib/cloud/instances/i-1" {
		t.Errorf("Readlink = %q, %v", got, err)
	}
	// A write below a directory link goes where the link leads, inside.
	if _, err := r.WriteFile("/var/lib/cloud/instance/x", []byte("x"), 0o644, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "var/lib/cloud/instances/i-1/x")); err != nil {
		t.Errorf("a write below a directory link did not follow it: %v", err)
	}
}

// A write replaces a link at its last component the way rename(2) does; it
// never writes through it, not even to a file inside the root.
func TestWriteReplacesALinkAtTheLastComponent(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	mustT(t, os.WriteFile(filepath.Join(dir, "target"), []byte("kept"), 0o644))
	mustT(t, os.Symlink("/target", filepath.Join(dir, "link")))
	if c, err := r.WriteFile("/link", []byte("new"), 0o644, 0o755); err != nil || c != Changed {
		t.Fatalf("WriteFile = %s, %v", c, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "target")); string(b) != "kept" {
		t.Errorf("the link's target was written: %q", b)
	}
	if info, err := os.Lstat(filepath.Join(dir, "link")); err != nil || !info.Mode().IsRegular() {
		t.Errorf("the link was not replaced by a file: %v, %v", info, err)
	}
}

func TestIdenticalWritesAreSkipped(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	write := func() Change {
		t.Helper()
		c, err := r.WriteFile("/etc/k0s/join-token", []byte("token\n"), 0o600, 0o700)
		mustT(t, err)
		return c
	}
	if c := write(); c != Created {
		t.Fatalf("first write: %s", c)
	}
	before, err := os.Lstat(filepath.Join(dir, "etc/k0s/join-token"))
	mustT(t, err)
	time.Sleep(10 * time.Millisecond) // a rewrite would show in the mtime
	if c := write(); c != Unchanged {
		t.Fatalf("second write: %s", c)
	}
	after, err := os.Lstat(filepath.Join(dir, "etc/k0s/join-token"))
	mustT(t, err)
	b, a := before.Sys().(*syscall.Stat_t), after.Sys().(*syscall.Stat_t)
	if b.Ino != a.Ino || !before.ModTime().Equal(after.ModTime()) {
		t.Errorf("an identical write replaced the file: inode %d -> %d, mtime %v -> %v", b.Ino, a.Ino, before.ModTime(), after.ModTime())
	}
	entries, err := os.ReadDir(filepath.Join(dir, "etc/k0s"))
	mustT(t, err)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want the file alone (no temp files left)", len(entries))
	}
	if c, err := r.WriteFile("/etc/k0s/join-token", []byte("token\n"), 0o640, 0o700); err != nil || c != Changed {
		t.Errorf("a mode change = %s, %v; want changed", c, err)
	}
}

func TestParentsAre0755AndTheLeafGetsItsMode(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	old := unix.Umask(0o022)
	defer unix.Umask(old)
	if _, err := r.WriteFile("/run/corium/secrets/wg0.key", []byte("k"), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]fs.FileMode{"run": 0o755, "run/corium": 0o755, "run/corium/secrets": 0o700, "run/corium/secrets/wg0.key": 0o600} {
		if info, err := os.Lstat(filepath.Join(dir, p)); err != nil || info.Mode().Perm() != want {
			t.Errorf("%s: %v, %v; want %v", p, info.Mode().Perm(), err, want)
		}
	}
	// An existing looser secrets directory is tightened; other modes are
	// left as the image made them.
	mustT(t, os.MkdirAll(filepath.Join(dir, "etc/wireguard"), 0o755))
	mustT(t, r.MkdirAll("/etc/wireguard", 0o700))
	mustT(t, r.MkdirAll("/etc", 0o750))
	for p, want := range map[string]fs.FileMode{"etc": 0o755, "etc/wireguard": 0o700} {
		if info, _ := os.Lstat(filepath.Join(dir, p)); info.Mode().Perm() != want {
			t.Errorf("%s: %v; want %v", p, info.Mode().Perm(), want)
		}
	}
	// The root itself is never restricted.
	mustT(t, r.MkdirAll("/", 0o700))
	if _, err := r.WriteFile("/top", nil, 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(dir); info.Mode().Perm() == 0o700 {
		t.Error("the root directory was restricted")
	}
}

func TestSymlinkExistsRemove(t *testing.T) {
	r := New(t.TempDir())
	const p, target = "/etc/systemd/system/multi-user.target.wants/wg-quick@wg0.service", "/usr/lib/systemd/system/wg-quick@.service"
	for i, want := range []Change{Created, Unchanged} {
		if c, err := r.Symlink(p, target); err != nil || c != want {
			t.Fatalf("Symlink #%d = %s, %v; want %s", i+1, c, err, want)
		}
	}
	if c, err := r.Symlink(p, "/elsewhere"); err != nil || c != Changed {
		t.Fatalf("Symlink to a new target = %s, %v", c, err)
	}
	if !r.Exists(p) {
		t.Error("a dangling link does not exist")
	}
	if _, err := r.WriteFile("/etc/file", []byte("x"), 0o644, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Symlink("/etc/file", "/x"); err == nil || !strings.Contains(err.Error(), "not a symlink is in the way") {
		t.Errorf("Symlink over a file = %v", err)
	}
	for i, want := range []bool{true, false} {
		if removed, err := r.Remove(p); err != nil || removed != want {
			t.Errorf("Remove #%d = %v, %v; want %v", i+1, removed, err, want)
		}
	}
	if r.Exists(p) {
		t.Error("a removed link exists")
	}
	if removed, err := r.Remove("/no/such/dir/file"); err != nil || removed {
		t.Errorf("Remove under a missing directory = %v, %v", removed, err)
	}
}

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	mustT(t, unix.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	mustT(t, unix.Mknod(filepath.Join(dir, "sock"), unix.S_IFSOCK|0o600, 0))
	mustT(t, os.Mkdir(filepath.Join(dir, "dir"), 0o755))
	mustT(t, os.Symlink("/fifo", filepath.Join(dir, "to-fifo")))
	for p, want := range map[string]string{
		"/fifo":    "open /fifo: is a named pipe (FIFO), not a regular file",
		"/to-fifo": "open /to-fifo: is a named pipe (FIFO), not a regular file",
		"/sock":    "open /sock: is a socket, not a regular file",
		"/dir":     "open /dir: is a directory",
	} {
		done := make(chan error, 1)
		go func() { _, err := r.ReadFile(p); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) || err.Error() != want {
				t.Errorf("ReadFile(%s) = %v; want %q", p, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("ReadFile(%s) blocked", p)
		}
	}
	if c, err := r.Compare("/fifo", nil, 0o600); err != nil || c != Changed {
		t.Errorf("Compare of a FIFO = %s, %v; want changed", c, err)
	}
	if _, err := r.WriteFile("/fifo", []byte("x"), 0o600, 0o755); err != nil {
		t.Fatal(err)
	}
	if b, err := r.ReadFile("/fifo"); err != nil || string(b) != "x" {
		t.Errorf("the FIFO was not replaced by a file: %q, %v", b, err)
	}
}

func TestPathsThatCannotStayInsideFailNamingTheNodePath(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	mustT(t, os.WriteFile(filepath.Join(dir, "file"), nil, 0o644))
	mustT(t, os.Symlink("/nowhere", filepath.Join(dir, "dangling")))
	for _, tc := range []struct {
		err  error
		want string
	}{
		{r.MkdirAll("/file/sub", 0o755), "creating /file/sub: not a directory"},
		{r.MkdirAll("/dangling", 0o700), "creating /dangling: /dangling is a symlink that leads to no directory inside the root (not a directory); point it at one there, or remove it"},
		{r.MkdirAll("/dangling/sub", 0o700), "creating /dangling/sub: /dangling is a symlink that leads to no directory inside the root (not a directory); point it at one there, or remove it"},
		{func() error { _, err := r.WriteFile("/file/x", nil, 0o644, 0o755); return err }(), "reading /file/x: not a directory"},
		{func() error { _, err := r.ReadFile("/file/x"); return err }(), "open /file/x: not a directory"},
		{func() error { _, err := r.WriteFile("/", nil, 0o644, 0o755); return err }(), "writing /: the root is a directory; name a file under it"},
	} {
		if tc.err == nil || tc.err.Error() != tc.want {
			t.Errorf("err = %v; want %q", tc.err, tc.want)
		}
	}
}

// The host is a root like any other: one code path, ordinary resolution.
func TestTheHostRootIsOrdinaryResolution(t *testing.T) {
	dir := t.TempDir()
	mustT(t, os.WriteFile(filepath.Join(dir, "f"), []byte("host"), 0o644))
	mustT(t, os.Symlink(filepath.Join(dir, "f"), filepath.Join(dir, "abs")))
	h := New("")
	if !h.IsHost() || h.Dir() != "/" || h.Display("/var/../etc/./hostname") != "/etc/hostname" {
		t.Fatalf("New(\"\") = %s, Display = %s", h.Dir(), h.Display("/var/../etc/./hostname"))
	}
	for _, p := range []string{dir + "/f", dir + "/abs", dir + "/../" + filepath.Base(dir) + "/./f"} {
		if b, err := h.ReadFile(p); err != nil || string(b) != "host" {
			t.Errorf("ReadFile(%s) on / = %q, %v", p, b, err)
		}
	}
	if c, err := h.WriteFile(dir+"/new", []byte("n"), 0o644, 0o755); err != nil || c != Created {
		t.Errorf("WriteFile on / = %s, %v", c, err)
	}
}

func mustT(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
