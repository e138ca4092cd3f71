package status

import (
	"net/netip"
)

// EncodeNodeAddress is the node address record's content.
func EncodeNodeAddress(a netip.Addr) []byte { return []byte(a.String() + "\n") }
