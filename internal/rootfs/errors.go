package rootfs

import (
	"errors"
	"io/fs"
	"strconv"

	"golang.org/x/sys/unix"
)

// ErrNotRegular is what opening a node path for its content fails with when
// the path is not a regular file: a FIFO would block the open, a device or a
// socket is never a configuration or a secret.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError says what stands where a regular file was wanted.
type NotRegularError struct {
	Type string // "a directory", "a named pipe (FIFO)", ...
}

func (e *NotRegularError) Error() string {
	if e.Type == typeDir {
		return "is a directory" // as the kernel says it; never mistaken for a file
	}
	return "is " + e.Type + ", not a regular file"
}

// Is makes errors.Is(err, ErrNotRegular) hold, and EISDIR for a directory,
// as reading one through os would.
func (e *NotRegularError) Is(target error) bool {
	return target == ErrNotRegular || (e.Type == typeDir && target == unix.EISDIR)
}

const (
	typeDir = "a directory"
	// typeDangling is a link to nothing found in a directory's listing
	// (ReadFound): there is no file, so its type is the link's.
	typeDangling = "a symbolic link to nothing"
)

// ErrTooLarge is what a bounded read (ReadNamed, ReadFound, ReadAtMost)
// fails with when there is more than its limit.
var ErrTooLarge = errors.New("larger than the most read")

// TooLargeError says how much was the most.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string { return "holds more than " + sizeText(e.Limit) }

// Is makes errors.Is(err, ErrTooLarge) hold.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// sizeText spells n in the largest binary unit that divides it.
func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

func notRegular(m fs.FileMode) *NotRegularError {
	t := "not a regular file"
	switch {
	case m.IsDir():
		t = typeDir
	case m&fs.ModeNamedPipe != 0:
		t = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		t = "a socket"
	case m&fs.ModeCharDevice != 0:
		t = "a character device"
	case m&fs.ModeDevice != 0:
		t = "a block device"
	case m&fs.ModeSymlink != 0:
		t = "a symlink"
	}
	return &NotRegularError{Type: t}
}

// loopError is ELOOP explained: inside a root it means the path cannot be
// kept there by following its links, and nothing falls back to the host.
type loopError struct{}

func (loopError) Error() string {
	return "too many levels of symbolic links (a loop, a chain of more than 40 links, or a link where a directory must be); fix the links under the root"
}

func (loopError) Unwrap() error { return unix.ELOOP }

// rootError is a root directory that cannot be opened at all.
type rootError struct {
	dir string
	err error
}

func (e *rootError) Error() string { return "opening the root " + e.dir + ": " + e.err.Error() }
func (e *rootError) Unwrap() error { return e.err }

// pathError names the node path p and keeps only the errno of what failed:
// the library's and the kernel's messages carry the host path under the
// root, which is not what the operator wrote. errors.Is(err, fs.ErrNotExist)
// holds as for an os error.
func pathError(op, p string, err error) error {
	var re *rootError
	if errors.As(err, &re) {
		return &fs.PathError{Op: op, Path: node(p), Err: re}
	}
	return &fs.PathError{Op: op, Path: node(p), Err: cause(err)}
}

// cause is err's errno, ELOOP explained; an error without one (the
// library's own checks) stays as it is.
func cause(err error) error {
	var errno unix.Errno
	if !errors.As(err, &errno) {
		return err
	}
	if errno == unix.ELOOP {
		return loopError{}
	}
	return errno
}
