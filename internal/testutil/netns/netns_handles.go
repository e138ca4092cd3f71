package netns

import (
	"testing"

	"github.com/google/nftables"
	"github.com/vishvananda/netlink"
	vnetns "github.com/vishvananda/netns"

	"github.com/corium/corium-agent/internal/hostfacts/nlroute"
)

// The agent's kernel clients take a namespace as a handle, not as the
// calling thread's: these open them on a test's namespace from the host, so
// a test reads and programs the namespace as the agent would the node.

// Open opens the namespace's file descriptor; it is closed when the test
// ends.
func (n *Netns) Open(t testing.TB) vnetns.NsHandle {
	t.Helper()
	h, err := vnetns.GetFromName(n.Name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = h.Close() })
	return h
}

// Netlink is a netlink handle whose sockets live in the namespace (links,
// addresses, routes), of the route family only as the agent opens it; it
// is closed when the test ends.
func (n *Netns) Netlink(t testing.TB) *netlink.Handle {
	t.Helper()
	h, err := nlroute.OpenAt(n.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return h
}

// Nftables is a connection to nftables in the namespace. Each of its
// requests enters the namespace through the descriptor, which stays open
// until the test ends.
func (n *Netns) Nftables(t testing.TB) *nftables.Conn {
	t.Helper()
	conn, err := nftables.New(nftables.WithNetNSFd(int(n.Open(t))))
	if err != nil {
		t.Fatal(err)
	}
	return conn
}
