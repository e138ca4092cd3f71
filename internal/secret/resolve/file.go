package resolve

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/corium/corium-agent/internal/secret"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/rootfs"
)

// Secret files are small; a larger file is a mistake (a wrong path), not a
// secret, and is refused rather than read into memory.
const maxFileBytes = 64 << 10

var (
	errMissing = errors.New("does not exist yet")
	errEmpty   = errors.New("is empty")
)

// readSecretFile reads the node path p under root, shown as name. Missing or
// empty (after trimming) is "not there yet"; any other failure is final, a
// path that is not a regular file included: a FIFO would block the open past
// waitFor, and a directory or a device will not turn into a secret by
// waiting. Errors name the node path, never the host path or the content.
func readSecretFile(root rootfs.Root, p, name string) (secret.Value, error) {
	f, err := root.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return secret.Value{}, retry.NotYet(fmt.Errorf("%s %w", name, errMissing))
	}
	if errors.Is(err, rootfs.ErrNotRegular) {
		return secret.Value{}, fmt.Errorf("reading %s: %w", name, pathErrCause(err))
	}
	if err != nil {
		return secret.Value{}, fmt.Errorf("opening %s: %w", name, pathErrCause(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return secret.Value{}, fmt.Errorf("reading %s: %w", name, pathErrCause(err))
	}
	if len(b) > maxFileBytes {
		return secret.Value{}, fmt.Errorf("reading %s: larger than %d bytes; a secret file holds one key or token", name, maxFileBytes)
	}
	s := strings.TrimSpace(string(b))
	clear(b)
	if s == "" {
		return secret.Value{}, retry.NotYet(fmt.Errorf("%s %w", name, errEmpty))
	}
	return secret.NewValue(s), nil
}

// pathErrCause drops *fs.PathError's path, so a message names the path once,
// as the operator wrote it.
func pathErrCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
