package apply

import (
	"context"
	"errors"
	"fmt"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/wgquick"
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
		data, err := h.root().ReadFile(c.Conf)
		if err != nil {
			return fmt.Errorf("adding peers to wireguard %s: reading %s: %w", c.Interface, c.Conf, err)
		}
		conf, err := addedPeers(data, c.Add)
		if err != nil {
			return fmt.Errorf("adding peers to wireguard %s: %s %w; run apply --again to render it anew", c.Interface, c.Conf, err)
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

// addedPeers is the file `wg addconf` is handed: the [Peer] sections of
// the added peers alone, as wgquick reads them out of conf and writes them
// again, so no [Interface] and no other peer reaches wg.
func addedPeers(conf []byte, add []plan.Key) ([]byte, error) {
	f, err := wgquick.Parse(conf)
	if err != nil {
		return nil, fmt.Errorf("does not parse: %w", err)
	}
	var peers []wgquick.Peer
	for _, k := range add {
		var found []wgquick.Peer
		for _, p := range f.Peers {
			if plan.Key(p.PublicKey) == k {
				found = append(found, p)
			}
		}
		if len(found) != 1 {
			return nil, errors.New("does not hold one [Peer] section for each added peer")
		}
		peers = append(peers, found[0])
	}
	return wgquick.MarshalPeers(peers, ""), nil
}
