package rootfs

import (
	"errors"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// Files outside any root: those a person names on a command line
// (validate's FILE, --facts FILE, --topology FILE, cmdline --credential)
// and those the agent finds itself by listing a directory so named
// (validate DIR, validate --cluster --facts DIR). Their paths are the
// host's, as the person wrote them, relative ones included. Every read is
// bounded by its caller's limit, so a wrong path (a log, a disk image,
// /dev/zero) costs at most that much memory, never all of it.

// ReadNamed reads at most limit bytes of the host file p that a person
// named. It may be anything that reads, a pipe included: validate <(…)
// names one (/dev/fd/63), and the person chose it. A FIFO with no writer
// yet blocks the open as it does for cat: the writer is the person's.
func ReadNamed(p string, limit int64) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err // an *fs.PathError naming p
	}
	defer f.Close()
	return readAtMost(f, p, limit)
}

// ReadFound reads at most limit bytes of the host file p that the agent
// found by listing a directory, only when it is a regular file (after
// links). Nobody chose to hand the agent what else may stand there: a FIFO
// blocks the open or the read with no writer, and no signal ends that
// wait; a link to /dev/zero never ends. The check is made on the file
// opened, as Open makes it under a root (reopenRegular, the same code): an
// O_PATH handle, which opens nothing that blocks or acts, checked with
// fstat and only then reopened for reading, so what is read is what was
// checked, not what a stat before the open saw. Anything else fails with
// a *NotRegularError (errors.Is ErrNotRegular) in an *fs.PathError naming
// p; a link to nothing is one.
func ReadFound(p string, limit int64) ([]byte, error) {
	h, err := os.OpenFile(p, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		if fi, lerr := os.Lstat(p); errors.Is(err, fs.ErrNotExist) && lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// Listed, and yet nothing to open: a link to nothing, said so
			// rather than as a file that does not exist.
			err = &fs.PathError{Op: "open", Path: p, Err: &NotRegularError{Type: typeDangling}}
		}
		return nil, err
	}
	defer h.Close()
	f, err := reopenRegular(h)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: p, Err: cause(err)}
	}
	defer f.Close()
	return readAtMost(f, p, limit)
}

// ReadAtMost reads r to its end, refusing more than limit bytes with a
// *TooLargeError (errors.Is ErrTooLarge) in an *fs.PathError naming name:
// standard input, as validate - reads it, is bounded as a file is.
func ReadAtMost(r io.Reader, name string, limit int64) ([]byte, error) {
	return readAtMost(r, name, limit)
}

// readAtMost reads one byte past limit, so that a file of exactly limit
// bytes is read whole and one byte more is known to be too much without
// reading the rest.
func readAtMost(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the reopened file's own name is a /proc path
		}
		return nil, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if int64(len(b)) > limit {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	return b, nil
}
