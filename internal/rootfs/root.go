package rootfs

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Root is a directory tree standing in for "/".
type Root struct {
	dir string
}

// New returns the root at dir ("" means "/").
func New(dir string) Root {
	if dir == "" {
		dir = "/"
	}
	return Root{dir: filepath.Clean(dir)}
}

// Dir is the root's directory on the host.
func (r Root) Dir() string { return r.dir }

// IsHost reports whether the root is the running system's "/", where live
// actions (D-Bus, netlink, k0s install) are allowed.
func (r Root) IsHost() bool { return r.dir == "/" }

// Path maps an absolute path of the node to the host path under the root.
// The path is cleaned first, so "../" cannot climb out of the root, and
// symlinks in its directories are followed inside the root.
func (r Root) Path(p string) string {
	return r.resolve(p, false)
}

// Resolve is Path with a final symlink followed inside the root too: the
// host path to read the node path's content from.
func (r Root) Resolve(p string) string {
	return r.resolve(p, true)
}

// ReadFile reads a node path under the root.
func (r Root) ReadFile(p string) ([]byte, error) {
	return os.ReadFile(r.Resolve(p))
}

// Change says what a write did.
type Change string

const (
	Created   Change = "created"
	Changed   Change = "changed"
	Unchanged Change = "unchanged"
)

// Compare tells what WriteFile would do, without writing.
func (r Root) Compare(p string, content []byte, mode fs.FileMode) (Change, error) {
	hostPath := r.Path(p)
	info, err := os.Lstat(hostPath)
	if errors.Is(err, fs.ErrNotExist) {
		return Created, nil
	}
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", p, err)
	}
	if !info.Mode().IsRegular() || info.Mode().Perm() != mode.Perm() || info.Size() != int64(len(content)) {
		return Changed, nil
	}
	old, err := os.ReadFile(hostPath)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", p, err)
	}
	if bytes.Equal(old, content) {
		return Unchanged, nil
	}
	return Changed, nil
}

// WriteFile writes content to the node path p with mode, atomically, creating
// missing parent directories with dirMode. An identical file is left alone.
func (r Root) WriteFile(p string, content []byte, mode, dirMode fs.FileMode) (Change, error) {
	change, err := r.Compare(p, content, mode)
	if err != nil || change == Unchanged {
		return change, err
	}
	hostPath := r.Path(p)
	dir := filepath.Dir(hostPath)
	if err := r.MkdirAll(filepath.Dir(filepath.Clean("/"+p)), dirMode); err != nil {
		return "", err
	}
	tmpPrefix := "." + filepath.Base(hostPath) + ".tmp-"
	removeStale(dir, tmpPrefix)
	tmp, err := os.CreateTemp(dir, tmpPrefix+"*")
	if err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := writeSynced(tmp, content, mode); err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	failpoint()
	if err := os.Rename(tmp.Name(), hostPath); err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	failpoint()
	if err := syncDir(dir); err != nil {
		return "", fmt.Errorf("writing %s: %w", p, err)
	}
	return change, nil
}

func writeSynced(f *os.File, content []byte, mode fs.FileMode) error {
	defer f.Close()
	// Chmod before any byte lands, so a secret is never readable by others,
	// not even for the life of the temp file.
	if err := f.Chmod(mode.Perm()); err != nil {
		return err
	}
	if _, err := f.Write(content); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	return f.Close()
}

// removeStale deletes temp files an interrupted earlier write left beside the
// target (a crash between write and rename), so a re-run leaves the same tree
// as an uninterrupted run. One agent writes a path at a time, so no live
// writer's temp file is ever among them.
func removeStale(dir, prefix string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), prefix) && e.Type().IsRegular() {
			_ = os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// MkdirAll creates the node directory p and its parents with mode. Existing
// directories keep their mode, except p itself, whose mode is enforced when it
// is stricter than wanted (a secrets directory must be 0700).
func (r Root) MkdirAll(p string, mode fs.FileMode) error {
	if mode == 0 {
		mode = 0o755
	}
	hostPath := r.Path(p)
	if err := os.MkdirAll(hostPath, mode); err != nil {
		return fmt.Errorf("creating %s: %w", p, err)
	}
	info, err := os.Stat(hostPath)
	if err != nil {
		return fmt.Errorf("creating %s: %w", p, err)
	}
	if info.Mode().Perm() != mode.Perm() && mode.Perm()&0o077 == 0 {
		if err := os.Chmod(hostPath, mode.Perm()); err != nil {
			return fmt.Errorf("restricting %s: %w", p, err)
		}
	}
	return nil
}

// Symlink makes the node path p point at target (a node path, kept as is, the
// way systemctl --root writes .wants links). An identical link is left alone.
func (r Root) Symlink(p, target string) (Change, error) {
	hostPath := r.Path(p)
	old, err := os.Readlink(hostPath)
	switch {
	case err == nil && old == target:
		return Unchanged, nil
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		if _, statErr := os.Lstat(hostPath); statErr == nil {
			return "", fmt.Errorf("linking %s: a file that is not a symlink is in the way", p)
		}
	}
	change := Created
	if err == nil {
		change = Changed
	}
	if err := r.MkdirAll(filepath.Dir(filepath.Clean("/"+p)), 0o755); err != nil {
		return "", err
	}
	tmp := filepath.Join(filepath.Dir(hostPath), "."+filepath.Base(hostPath)+".tmp-link")
	_ = os.Remove(tmp)
	if err := os.Symlink(target, tmp); err != nil {
		return "", fmt.Errorf("linking %s: %w", p, err)
	}
	failpoint()
	if err := os.Rename(tmp, hostPath); err != nil {
		_ = os.Remove(tmp)
		return "", fmt.Errorf("linking %s: %w", p, err)
	}
	failpoint()
	return change, syncDir(filepath.Dir(hostPath))
}

// Exists reports whether the node path exists under the root.
func (r Root) Exists(p string) bool {
	_, err := os.Lstat(r.Path(p))
	return err == nil
}

// Remove deletes the node path if present.
func (r Root) Remove(p string) (bool, error) {
	failpoint()
	err := os.Remove(r.Path(p))
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("removing %s: %w", p, err)
	}
	return true, nil
}

// Managed is the header every generated text file carries, in the comment
// syntax of its format.
func Managed(commentPrefix string) string {
	return strings.TrimSpace(commentPrefix) + " managed by corium-agent; changes are overwritten\n"
}
