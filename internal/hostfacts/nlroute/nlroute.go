package nlroute

import (
	"github.com/vishvananda/netlink"
	vnetns "github.com/vishvananda/netns"
	"golang.org/x/sys/unix"
)

// Links, addresses and routes are all the agent reads over netlink. A
// handle opened with no family opens the XFRM and netfilter families too,
// and the kernel answers the first such socket by loading xfrm_user (and
// nfnetlink) with modprobe, before the agent's first line at every start,
// for a module nothing on the node uses.
var routeOnly = []int{unix.NETLINK_ROUTE}

// Open is a netlink handle on the host's network namespace, for the route
// family only.
func Open() (*netlink.Handle, error) {
	return netlink.NewHandle(routeOnly...)
}

// OpenAt is Open on another network namespace.
func OpenAt(ns vnetns.NsHandle) (*netlink.Handle, error) {
	return netlink.NewHandleAt(ns, routeOnly...)
}
