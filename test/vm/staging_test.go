package vm

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

// staging is a VM's disk while it is made: the cached tree with the VM's
// own files over it (an overlayfs mount, so the cache is never written),
// turned into an ext4 image by mke2fs -d. No loop device is involved.
type staging struct {
	t    testing.TB
	Root string // the merged tree, the guest's / while it is staged
	dir  string
}

func newStaging(t testing.TB, img image) *staging {
	t.Helper()
	s := &staging{t: t, dir: t.TempDir()}
	s.Root = filepath.Join(s.dir, "merged")
	for _, d := range []string{"upper", "work", "merged"} {
		if err := os.Mkdir(filepath.Join(s.dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	opts := fmt.Sprintf("lowerdir=%s,upperdir=%s,workdir=%s", img.Root, filepath.Join(s.dir, "upper"), filepath.Join(s.dir, "work"))
	if out, err := exec.Command("mount", "-t", "overlay", "overlay", "-o", opts, s.Root).CombinedOutput(); err != nil {
		t.Fatalf("mounting the staging tree: %v\n%s", err, out)
	}
	t.Cleanup(s.unmount)
	return s
}

// Path is p (absolute, as the guest sees it) on the host.
func (s *staging) Path(p string) string { return filepath.Join(s.Root, p) }

// WriteFile writes a file into the guest's tree, making its directories.
func (s *staging) WriteFile(p string, data []byte, mode fs.FileMode) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.Path(p)), 0o755); err != nil {
		s.t.Fatal(err)
	}
	// Remove first: the path may be a symlink into the lower tree.
	_ = os.Remove(s.Path(p))
	if err := os.WriteFile(s.Path(p), data, mode); err != nil {
		s.t.Fatal(err)
	}
	if err := os.Chmod(s.Path(p), mode); err != nil {
		s.t.Fatal(err)
	}
}

// CopyFile copies a host file into the guest's tree.
func (s *staging) CopyFile(src, dst string, mode fs.FileMode) {
	s.t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		s.t.Fatal(err)
	}
	s.WriteFile(dst, data, mode)
}

// CopyTree copies a host directory into the guest's tree at dst, keeping
// modes, as the Containerfile's COPY image/ / does.
func (s *staging) CopyTree(src, dst string) {
	s.t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(s.Path(filepath.Join(dst, rel)), 0o755)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		s.CopyFile(p, filepath.Join(dst, rel), info.Mode().Perm())
		return nil
	})
	if err != nil {
		s.t.Fatalf("copying %s into the guest's tree: %v", src, err)
	}
}

// Symlink makes p a symlink to target in the guest's tree.
func (s *staging) Symlink(target, p string) {
	s.t.Helper()
	if err := os.MkdirAll(filepath.Dir(s.Path(p)), 0o755); err != nil {
		s.t.Fatal(err)
	}
	_ = os.Remove(s.Path(p))
	if err := os.Symlink(target, s.Path(p)); err != nil {
		s.t.Fatal(err)
	}
}

// Run runs a host command on the staged tree (systemctl --root=...).
func (s *staging) Run(args ...string) {
	s.t.Helper()
	if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
		s.t.Fatalf("%v: %v\n%s", args, err, out)
	}
}

// diskSize is each VM's disk, sparse: the tree is about 500 MB.
const diskSize = "3G"

// MakeDisk writes the staged tree into an ext4 image at path and unmounts
// the staging tree.
func (s *staging) MakeDisk(path string) {
	s.t.Helper()
	start := time.Now()
	cmd := exec.Command("mke2fs", "-q", "-F", "-t", "ext4", "-L", "root", "-d", s.Root, path, diskSize)
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("making the disk %s: %v\n%s", path, err, out)
	}
	s.unmount()
	s.t.Logf("disk %s made in %v", filepath.Base(path), time.Since(start).Round(100*time.Millisecond))
}

func (s *staging) unmount() {
	for i := 0; i < 50; i++ {
		err := syscall.Unmount(s.Root, 0)
		if err == nil || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOENT) {
			_ = os.RemoveAll(filepath.Join(s.dir, "upper"))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err := syscall.Unmount(s.Root, syscall.MNT_DETACH); err != nil {
		s.t.Errorf("unmounting %s: %v", s.Root, err)
	}
}
