package store

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

// ReadNodeAddress is the node address the node joined with. ok is false
// when there is no record (k0s chose the address, or the node is not
// provisioned); an unreadable or damaged record is an error.
func ReadNodeAddress(root rootfs.Root) (a netip.Addr, ok bool, err error) {
	data, err := root.ReadFile(status.NodeAddressPath)
	if err != nil {
		if isNotExist(err) {
			return netip.Addr{}, false, nil
		}
		return netip.Addr{}, false, fmt.Errorf("reading %s: %w", status.NodeAddressPath, err)
	}
	text := strings.TrimSpace(string(data))
	if text == "" {
		return netip.Addr{}, false, nil
	}
	a, err = netip.ParseAddr(text)
	if err != nil {
		return netip.Addr{}, false, fmt.Errorf("reading %s: not an IP address", status.NodeAddressPath)
	}
	return a, true, nil
}
