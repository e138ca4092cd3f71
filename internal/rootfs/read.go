package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"os"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"
)

// Open opens the regular file at the node path p for reading, its links
// followed inside the root. Anything else there (a directory, a FIFO, a
// device, a socket) fails at once with ErrNotRegular, before any open that
// could block or act on a device: the handle is taken O_PATH, checked with
// fstat, and only then reopened, so the file read is the one checked. The
// file's Name is where it was found on the host; a message names p instead.
func (r Root) Open(p string) (*os.File, error) {
	h, err := r.lookup("open", p)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	f, err := reopenRegular(h)
	if err != nil {
		return nil, pathError("open", p, err)
	}
	return f, nil
}

// reopenRegular opens for reading the file the O_PATH handle h holds, when
// fstat says it is a regular file, and fails with *NotRegularError
// otherwise: the one check of every read that takes regular files only
// (Open under a root, ReadFound outside one). The error names no path; the
// caller knows how to spell it.
func reopenRegular(h *os.File) (*os.File, error) {
	info, err := h.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, notRegular(info.Mode())
	}
	return pathrs.Reopen(h, unix.O_RDONLY|unix.O_NOCTTY)
}

// ReadFile reads the regular file at the node path p, its links followed
// inside the root.
func (r Root) ReadFile(p string) ([]byte, error) {
	f, err := r.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, p)
}

func readAll(f *os.File, p string) ([]byte, error) {
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, pathError("read", p, err)
	}
	return b, nil
}

// Stat describes what the node path p leads to, its links followed inside
// the root.
func (r Root) Stat(p string) (fs.FileInfo, error) {
	h, err := r.lookup("stat", p)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	info, err := h.Stat()
	if err != nil {
		return nil, pathError("stat", p, err)
	}
	return info, nil
}

// Lstat describes the node path p itself: a link at its last component is
// described, not followed.
func (r Root) Lstat(p string) (fs.FileInfo, error) {
	h, err := r.openLeaf("lstat", p)
	if err != nil {
		return nil, err
	}
	defer h.Close()
	info, err := h.Stat()
	if err != nil {
		return nil, pathError("lstat", p, err)
	}
	return info, nil
}

// openLeaf is an O_PATH handle on p's last component itself, not followed.
func (r Root) openLeaf(op, p string) (*os.File, error) {
	d, base, err := r.parent(op, p)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return leafAt(op, p, d, base)
}

func leafAt(op, p string, d *os.File, base string) (*os.File, error) {
	h, err := unix.Openat(fd(d), base, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, pathError(op, p, err)
	}
	return os.NewFile(uintptr(h), node(p)), nil
}

// Readlink is the target of the link at the node path p, as written.
func (r Root) Readlink(p string) (string, error) {
	d, base, err := r.parent("readlink", p)
	if err != nil {
		return "", err
	}
	defer d.Close()
	return readlinkAt(p, d, base)
}

func readlinkAt(p string, d *os.File, base string) (string, error) {
	for size := 256; ; size *= 2 {
		buf := make([]byte, size)
		n, err := unix.Readlinkat(fd(d), base, buf)
		if err != nil {
			return "", pathError("readlink", p, err)
		}
		if n < size {
			return string(buf[:n]), nil
		}
	}
}

// Exists reports whether something (a link included, dangling or not) is at
// the node path p. A path that cannot be resolved inside the root counts as
// absent.
func (r Root) Exists(p string) bool {
	d, base, err := r.parent("lstat", p)
	if err != nil {
		return false
	}
	defer d.Close()
	var st unix.Stat_t
	return unix.Fstatat(fd(d), base, &st, unix.AT_SYMLINK_NOFOLLOW) == nil
}

// isNotExist is ENOENT, whichever layer said it.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
