package firewall

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/corium/corium-agent/internal/rootfs"
)

// ErrNotRendered means no guard was rendered under the root: the node has not
// been provisioned, which is not the same as a guard that is off.
var ErrNotRendered = errors.New("no rendered guard")

// ErrBadFile means the rendered guard is there but cannot be used as
// written: torn, edited, or from an agent this one does not know.
var ErrBadFile = errors.New("the rendered guard cannot be used")

// Load reads the guard rendered to FilePath under the root.
func Load(root rootfs.Root) (Guard, error) {
	data, err := root.ReadFile(FilePath)
	if errors.Is(err, fs.ErrNotExist) {
		return Guard{}, fmt.Errorf("%w at %s (the node has not been provisioned); pass --config FILE", ErrNotRendered, root.Display(FilePath))
	}
	if err != nil {
		return Guard{}, fmt.Errorf("reading %s: %w", root.Display(FilePath), err)
	}
	g, err := ParseFile(data)
	if err != nil {
		return Guard{}, fmt.Errorf("reading %s: %w: %w", root.Display(FilePath), ErrBadFile, err)
	}
	return g, nil
}
