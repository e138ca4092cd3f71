package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/corium/corium-agent/internal/rootfs"
)

// stdin is what a FILE of "-" reads; tests hand their own.
var stdin io.Reader = os.Stdin

// stdinName is how findings name standard input, as compilers do.
const stdinName = "<stdin>"

// maxDocument bounds what is read of a document (validate's, cmdline's,
// --topology's). A node reads /etc/corium/config.yaml and cloud-init's
// cloud-config whole, and a cloud-config may carry write_files of its own,
// each inflating to at most 64 MiB (package source's bound): the same bound
// is far above any document a node takes, and far below what a wrong path
// (a disk image, /dev/zero) would cost.
const maxDocument = 64 << 20

// readInput reads a FILE argument, standard input for "-"; name is how
// findings spell it. A file a person named may be anything that reads, a
// pipe included (validate <(…)); readFoundInput reads what the agent found
// itself. The error names the file once (not as os.PathError does, twice).
func readInput(file string) (data []byte, name string, err error) {
	if file == "-" {
		data, err := rootfs.ReadAtMost(stdin, stdinName, maxDocument)
		if err != nil {
			return nil, stdinName, fmt.Errorf("reading standard input: %w", readCause(err))
		}
		return data, stdinName, nil
	}
	data, err = rootfs.ReadNamed(file, maxDocument)
	if err != nil {
		return nil, file, fmt.Errorf("reading %s: %w", file, readCause(err))
	}
	return data, file, nil
}

// readCause is err without the *fs.PathError that names the file a second
// time, and with what to do when the file is too large.
func readCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if errors.Is(err, rootfs.ErrTooLarge) {
		return fmt.Errorf("%w, more than any document a node reads: name the document itself, not a log or an image holding it", err)
	}
	return err
}

// readsStdinTwice says files name standard input more than once: the second
// read would find it empty.
func readsStdinTwice(files []string) bool {
	n := 0
	for _, f := range files {
		if f == "-" {
			n++
		}
	}
	return n > 1
}
