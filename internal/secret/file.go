package secret

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/corium/corium-agent/internal/retry"
)

// Secret files are small; a larger file is a mistake (a wrong path), not a
// secret, and is refused rather than read into memory.
const maxFileBytes = 64 << 10

var (
	errMissing = errors.New("does not exist yet")
	errEmpty   = errors.New("is empty")
)

// readSecretFile reads hostPath, shown as name. Missing or empty (after
// trimming) is "not there yet"; any other failure is final. Errors name the
// node path, never the host path or the content.
func readSecretFile(hostPath, name string) (Value, error) {
	f, err := os.Open(hostPath)
	if errors.Is(err, fs.ErrNotExist) {
		return Value{}, retry.NotYet(fmt.Errorf("%s %w", name, errMissing))
	}
	if err != nil {
		return Value{}, fmt.Errorf("opening %s: %w", name, pathErrCause(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFileBytes+1))
	if err != nil {
		return Value{}, fmt.Errorf("reading %s: %w", name, pathErrCause(err))
	}
	if len(b) > maxFileBytes {
		return Value{}, fmt.Errorf("reading %s: larger than %d bytes; a secret file holds one key or token", name, maxFileBytes)
	}
	s := strings.TrimSpace(string(b))
	clear(b)
	if s == "" {
		return Value{}, retry.NotYet(fmt.Errorf("%s %w", name, errEmpty))
	}
	return NewValue(s), nil
}

// pathErrCause drops *fs.PathError's path, which is the host path under the
// root rather than the node path the operator wrote.
func pathErrCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
