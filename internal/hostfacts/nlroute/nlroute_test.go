package nlroute

import (
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpenRouteFamilyOnly: a handle with an XFRM or netfilter socket is
// what made the kernel load xfrm_user at the agent's start.
func TestOpenRouteFamilyOnly(t *testing.T) {
	h, err := Open()
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if !h.SupportsNetlinkFamily(unix.NETLINK_ROUTE) {
		t.Error("the handle has no route socket")
	}
	for name, family := range map[string]int{"xfrm": unix.NETLINK_XFRM, "netfilter": unix.NETLINK_NETFILTER} {
		if h.SupportsNetlinkFamily(family) {
			t.Errorf("the handle opened a %s socket", name)
		}
	}
	// The links are readable through it: the family is the one the agent needs.
	if links, err := h.LinkList(); err != nil || len(links) == 0 {
		t.Errorf("listing links through the handle: %v (%d links)", err, len(links))
	}
}
