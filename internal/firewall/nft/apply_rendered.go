package nft

import (
	"context"
	"fmt"

	"github.com/google/nftables"

	"github.com/corium/corium-agent/internal/firewall/guardfile"
	"github.com/corium/corium-agent/internal/rootfs"
)

// ApplyRendered programs the guard rendered under the root into the network
// namespace of the calling thread: what first boot and the boot-time unit do.
func ApplyRendered(ctx context.Context, root rootfs.Root) error {
	g, err := guardfile.Load(root)
	if err != nil {
		return err
	}
	conn, err := nftables.New()
	if err != nil {
		return fmt.Errorf("connecting to nftables: %w", err)
	}
	return Apply(ctx, conn, g)
}
