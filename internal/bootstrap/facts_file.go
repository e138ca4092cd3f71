package bootstrap

import (
	"errors"
	"fmt"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/rootfs"
)

// maxFactsFile bounds what is read of a facts file. The facts are a host's
// links with their addresses, its default route and a route per peer
// endpoint: about a hundred bytes each, so a few hundred kilobytes for a
// hub of thousands of peers. 16 MiB is far above that, and far below what
// a wrong path (a log, a disk image, /dev/zero) would cost.
const maxFactsFile = 16 << 20

// ReadFacts reads a --facts file a person named (the host's network as
// JSON, for a root other than /, or for validate); without one there are
// no facts. It may be a pipe (--facts <(ssh node corium-agent facts)).
func ReadFacts(path string) (*hostfacts.Facts, error) {
	if path == "" {
		return nil, nil
	}
	return readFacts(path, rootfs.ReadNamed)
}

// ReadFoundFacts reads a facts file found by listing a directory (validate
// --cluster --facts DIR), only when it is a regular file: anything else
// there fails with rootfs.ErrNotRegular, unread.
func ReadFoundFacts(path string) (*hostfacts.Facts, error) {
	return readFacts(path, rootfs.ReadFound)
}

func readFacts(path string, read func(string, int64) ([]byte, error)) (*hostfacts.Facts, error) {
	data, err := read(path, maxFactsFile)
	if errors.Is(err, rootfs.ErrTooLarge) {
		return nil, fmt.Errorf("reading facts: %w, more than any host's facts: name the file corium-agent facts wrote", err)
	}
	if err != nil {
		return nil, fmt.Errorf("reading facts: %w", err)
	}
	return hostfacts.Parse(data)
}
