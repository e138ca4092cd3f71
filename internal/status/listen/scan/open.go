package scan

import (
	"github.com/vishvananda/netlink"
	vnetns "github.com/vishvananda/netns"
	"golang.org/x/sys/unix"
)

// families are what a Reader's handle needs: sock_diag for the sockets, the
// route family to name the device a socket is bound to and the kernel's
// VXLAN and WireGuard devices, generic netlink for the FOU ports.
var families = []int{unix.NETLINK_INET_DIAG, unix.NETLINK_ROUTE, unix.NETLINK_GENERIC}

// Open is a handle on the host's network namespace for a Reader.
func Open() (*netlink.Handle, error) { return netlink.NewHandle(families...) }

// OpenAt is Open on another network namespace.
func OpenAt(ns vnetns.NsHandle) (*netlink.Handle, error) {
	return netlink.NewHandleAt(ns, families...)
}
