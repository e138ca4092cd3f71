package rootfs

import (
	"errors"
	"fmt"

	"golang.org/x/sys/unix"
)

// Symlink makes the node path p point at target (a node path, kept as is, the
// way systemctl --root writes .wants links). An identical link is left alone;
// a different one is replaced atomically.
func (r Root) Symlink(p, target string) (Change, error) {
	old, err := r.Readlink(p)
	switch {
	case err == nil && old == target:
		return Unchanged, nil
	case errors.Is(err, unix.EINVAL):
		return "", fmt.Errorf("linking %s: a file that is not a symlink is in the way; remove it", node(p))
	case err != nil && !isNotExist(err):
		return "", fmt.Errorf("linking %s: %w", node(p), bare(err))
	}
	change := Created
	if err == nil {
		change = Changed
	}
	dir, base := split(p)
	if base == "." {
		return "", fmt.Errorf("linking %s: the root is a directory; name a link under it", node(p))
	}
	d, err := r.mkdirAll(dir, 0o755)
	if err != nil {
		return "", err
	}
	defer d.Close()
	tmp := "." + base + ".tmp-link"
	_ = unix.Unlinkat(fd(d), tmp, 0)
	if err := unix.Symlinkat(target, fd(d), tmp); err != nil {
		return "", fmt.Errorf("linking %s: %w", node(p), cause(err))
	}
	failpoint()
	if err := unix.Renameat(fd(d), tmp, fd(d), base); err != nil {
		_ = unix.Unlinkat(fd(d), tmp, 0)
		return "", fmt.Errorf("linking %s: %w", node(p), cause(err))
	}
	failpoint()
	if err := d.Sync(); err != nil {
		return "", fmt.Errorf("linking %s: %w", node(p), cause(err))
	}
	return change, nil
}
