package guardfile

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/rootfs"
)

// Load reads the guard rendered to firewall.FilePath under the root.
func Load(root rootfs.Root) (firewall.Guard, error) {
	data, err := root.ReadFile(firewall.FilePath)
	if errors.Is(err, fs.ErrNotExist) {
		return firewall.Guard{}, fmt.Errorf("%w at %s (the node has not been provisioned); pass --config FILE", firewall.ErrNotRendered, root.Display(firewall.FilePath))
	}
	if err != nil {
		return firewall.Guard{}, fmt.Errorf("reading %s: %w", root.Display(firewall.FilePath), err)
	}
	g, err := firewall.ParseFile(data)
	if err != nil {
		return firewall.Guard{}, fmt.Errorf("reading %s: %w: %w", root.Display(firewall.FilePath), firewall.ErrBadFile, err)
	}
	return g, nil
}
