package firewall

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"github.com/google/nftables"

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

// ApplyRendered programs the guard rendered under the root into the network
// namespace of the calling thread: what first boot and the boot-time unit do.
func ApplyRendered(ctx context.Context, root rootfs.Root) error {
	g, err := Load(root)
	if err != nil {
		return err
	}
	conn, err := nftables.New()
	if err != nil {
		return fmt.Errorf("connecting to nftables: %w", err)
	}
	return Apply(ctx, conn, g)
}
