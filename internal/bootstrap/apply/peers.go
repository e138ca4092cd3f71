package apply

import (
	"context"
	"errors"
	"fmt"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
)

// WireGuardPeers adds and removes whole peers of a running device and
// touches no other; WgTool is the one of a running node, and
// applytest.RecordingPeers records what it is asked as text.
type WireGuardPeers interface {
	// AddPeers sets the peers of conf, [Peer] sections only, on iface.
	AddPeers(ctx context.Context, iface string, conf []byte) error
	// RemovePeers removes the peers keys names from iface.
	RemovePeers(ctx context.Context, iface string, keys []plan.Key) error
}

// changePeers carries out a wireguard-peers action: the added peers from
// their sections of the file render wrote before the action, which stays
// the one place their settings (a preshared key among them) are; then the
// removed ones. Adding first leaves no moment in which an allowed IP moved
// from a removed peer to an added one has no peer.
func (h *LiveHost) changePeers(ctx context.Context, c *plan.PeerChange) error {
	if c == nil {
		return errors.New("changing wireguard peers: the action names no change")
	}
	peers := h.Peers
	if peers == nil {
		peers = WgTool{}
	}
	if len(c.Add) > 0 {
		root := h.Root
		if root.Dir() == "" {
			root = rootfs.New("/")
		}
		data, err := root.ReadFile(c.Conf)
		if err != nil {
			return fmt.Errorf("adding peers to wireguard %s: reading %s: %w", c.Interface, c.Conf, err)
		}
		sections, ok := plan.ParseSections(data)
		var conf []byte
		if ok {
			conf, ok = sections.Text(c.Add)
		}
		if !ok {
			return fmt.Errorf("adding peers to wireguard %s: %s does not hold one [Peer] section for each added peer; run apply --again to render it anew", c.Interface, c.Conf)
		}
		if err := peers.AddPeers(ctx, c.Interface, conf); err != nil {
			return fmt.Errorf("adding peers to wireguard %s: %w", c.Interface, err)
		}
	}
	if len(c.Remove) > 0 {
		if err := peers.RemovePeers(ctx, c.Interface, c.Remove); err != nil {
			return fmt.Errorf("removing peers from wireguard %s: %w", c.Interface, err)
		}
	}
	return nil
}
