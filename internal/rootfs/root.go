package rootfs

import (
	"os"
	"path"
	"path/filepath"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"
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

// Display is where the node path p sits under the root, for a message only:
// it is joined lexically, links unresolved, and must never be handed to an
// os function, which would follow links in it on the host.
func (r Root) Display(p string) string {
	return filepath.Join(r.dir, node(p))
}

// node cleans p into an absolute node path, so "../" cannot climb out of the
// root lexically and a last component is never "." or "..".
func node(p string) string { return path.Clean("/" + p) }

// split is node(p) as its directory and last component; the root itself is
// "/" and ".", so *at calls on it act on the directory.
func split(p string) (dir, base string) {
	n := node(p)
	if n == "/" {
		return "/", "."
	}
	return path.Dir(n), path.Base(n)
}

// open returns an O_PATH handle on the root directory. It is opened for each
// operation: a Root is a plain value, copied freely, that holds no descriptor.
func (r Root) open() (*os.File, error) {
	return os.OpenFile(r.dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
}

// lookup opens the node path p with every link on the way followed inside
// the root, the last one included, as a chroot at the root would: an absolute
// target starts again at the root, ".." stops there, and more than the
// kernel's 40 links is ELOOP rather than a literal component. The handle is
// O_PATH; Reopen upgrades it. Errors name p, as op does.
func (r Root) lookup(op, p string) (*os.File, error) {
	h, err := r.resolve(node(p))
	if err != nil {
		return nil, pathError(op, p, err)
	}
	return h, nil
}

// parent opens the directory holding p inside the root and returns it with
// p's last component, which the caller's *at syscall acts on without the
// kernel following it: a write replaces a link there the way rename(2) does,
// it never writes through it. Errors name p, not its directory.
func (r Root) parent(op, p string) (*os.File, string, error) {
	dir, base := split(p)
	d, err := r.resolve(dir)
	if err != nil {
		return nil, "", pathError(op, p, err)
	}
	return d, base, nil
}

func (r Root) resolve(n string) (*os.File, error) {
	root, err := r.open()
	if err != nil {
		return nil, &rootError{dir: r.dir, err: cause(err)}
	}
	defer root.Close()
	return pathrs.OpenatInRoot(root, n)
}

// fd is f's descriptor as the unix package's *at calls take it.
func fd(f *os.File) int { return int(f.Fd()) }
