package guest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Tree is a guest's root file system staged on the host: an overlayfs over
// cached lower layers (LAYER:...:ROOTFS), so the cache is never written and
// each guest gets a tree of its own. The boot tests boot it with
// systemd-nspawn; the VM test turns it into a disk with mke2fs -d.
type Tree struct {
	t    testing.TB
	Root string // the merged tree, the guest's / as the host sees it
	dir  string
}

// NewTree mounts a tree over lower in a directory of the test's; the test's
// cleanup unmounts it.
func NewTree(t testing.TB, lower string) *Tree {
	t.Helper()
	tr := &Tree{t: t, dir: t.TempDir()}
	tr.Root = filepath.Join(tr.dir, "merged")
	for _, d := range []string{"upper", "work", "merged"} {
		if err := os.Mkdir(filepath.Join(tr.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s", lower, filepath.Join(tr.dir, "upper"), filepath.Join(tr.dir, "work"))
	if out, err := exec.Command("mount", "-t", "overlay", "overlay", "-o", opts, tr.Root).CombinedOutput(); err != nil {
		t.Fatalf("mounting a guest's tree over %s: %v\n%s", lower, err, out)
	}
	t.Cleanup(tr.Unmount)
	return tr
}

// Path is p (absolute, as the guest sees it) on the host.
func (tr *Tree) Path(p string) string { return filepath.Join(tr.Root, p) }

// WriteFile writes a file into the tree, making its directories. A file or
// symlink already at p (in the lower layers too) is replaced, not followed.
func (tr *Tree) WriteFile(p string, data []byte, mode fs.FileMode) {
	tr.t.Helper()
	tr.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.Remove(tr.Path(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		tr.t.Fatal(err)
	}
	if err := os.WriteFile(tr.Path(p), data, mode); err != nil {
		tr.t.Fatal(err)
	}
	// Past the umask.
	if err := os.Chmod(tr.Path(p), mode); err != nil {
		tr.t.Fatal(err)
	}
}

// MkdirAll makes a directory in the tree.
func (tr *Tree) MkdirAll(p string, mode fs.FileMode) {
	tr.t.Helper()
	if err := os.MkdirAll(tr.Path(p), mode); err != nil {
		tr.t.Fatal(err)
	}
}

// CopyFile copies a host file into the tree.
func (tr *Tree) CopyFile(src, dst string, mode fs.FileMode) {
	tr.t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		tr.t.Fatal(err)
	}
	tr.WriteFile(dst, data, mode)
}

// CopyTree copies a host directory into the tree at dst, keeping modes, as
// the Containerfile's COPY image/ / does.
func (tr *Tree) CopyTree(src, dst string) {
	tr.t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(tr.Path(filepath.Join(dst, rel)), 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		tr.CopyFile(p, filepath.Join(dst, rel), info.Mode().Perm())
		return nil
	})
	if err != nil {
		tr.t.Fatalf("copying %s into a guest's tree: %v", src, err)
	}
}

// Symlink makes p a symlink to target in the tree, replacing what is there.
func (tr *Tree) Symlink(target, p string) {
	tr.t.Helper()
	tr.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.Remove(tr.Path(p)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		tr.t.Fatal(err)
	}
	if err := os.Symlink(target, tr.Path(p)); err != nil {
		tr.t.Fatal(err)
	}
}

// Unmount unmounts the tree and drops what was written over the lower
// layers; it may be called more than once. A guest that just stopped can
// hold the mount busy for a moment, hence the retries before a lazy
// unmount.
func (tr *Tree) Unmount() {
	for i := 0; i < 50; i++ {
		err := syscall.Unmount(tr.Root, 0)
		if err == nil || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOENT) {
			_ = os.RemoveAll(filepath.Join(tr.dir, "upper"))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := syscall.Unmount(tr.Root, syscall.MNT_DETACH); err != nil {
		tr.t.Errorf("unmounting %s: %v", tr.Root, err)
	}
}
