package rootfs

import (
	"fmt"
	"io/fs"
	"os"
	"path"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"
)

// MkdirAll creates the node directory p with mode and its missing parents
// with 0755; links on the way, p itself included, are followed inside the
// root. Existing directories keep their mode, except p itself, whose mode is
// enforced when the wanted one is private (a secrets directory must be 0700).
func (r Root) MkdirAll(p string, mode fs.FileMode) error {
	d, err := r.mkdirAll(node(p), mode)
	if err != nil {
		return err
	}
	return d.Close()
}

// mkdirAll is MkdirAll returning a read-only descriptor on the directory,
// for the *at calls of a write into it.
func (r Root) mkdirAll(n string, mode fs.FileMode) (*os.File, error) {
	if mode == 0 {
		mode = 0o755
	}
	root, err := r.open()
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", n, &rootError{dir: r.dir, err: cause(err)})
	}
	defer root.Close()
	// pathrs-lite gives every directory one call creates the same mode: the
	// parents first, as 0755, so that only the leaf gets a private mode.
	if n != "/" {
		parent, err := pathrs.MkdirAllHandle(root, path.Dir(n), 0o755)
		if err != nil {
			return nil, r.mkdirError(n, path.Dir(n), err)
		}
		_ = parent.Close()
	}
	d, err := pathrs.MkdirAllHandle(root, n, mode.Perm())
	if err != nil {
		return nil, r.mkdirError(n, n, err)
	}
	// The root directory itself is the caller's, never the agent's to
	// restrict.
	if n == "/" {
		return d, nil
	}
	if err := restrict(d, mode); err != nil {
		_ = d.Close()
		return nil, fmt.Errorf("restricting %s: %w", n, err)
	}
	return d, nil
}

// restrict tightens d to a private mode through its descriptor, never
// through a path the kernel would resolve again.
func restrict(d *os.File, mode fs.FileMode) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd(d), &st); err != nil {
		return cause(err)
	}
	if fs.FileMode(st.Mode).Perm() == mode.Perm() || mode.Perm()&0o077 != 0 {
		return nil
	}
	return cause(unix.Fchmod(fd(d), uint32(mode.Perm())))
}

// mkdirError names n, and says so when a link stands where the directory at
// made was to be: the kernel's ENOTDIR or ELOOP alone reads as a broken tree,
// not as the planted or dangling link it is.
func (r Root) mkdirError(n, made string, err error) error {
	if info, lerr := r.Lstat(made); lerr == nil && info.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("creating %s: %s is a symlink that leads to no directory inside the root (%w); point it at one there, or remove it", n, made, cause(err))
	}
	return fmt.Errorf("creating %s: %w", n, cause(err))
}
