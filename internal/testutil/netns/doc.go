// Package netns makes throwaway network namespaces for privileged tests:
// one per node of a test, joined by veth pairs, deleted when the test ends.
// In a namespace a test runs commands, the real wg-quick (over the userspace
// wireguard-go, the test machines have no WireGuard module), code on a
// thread switched into it, and opens netlink, nftables and wgctrl handles on
// it, as the agent would on the node.
//
// It links netlink, nftables and wgctrl; only tests that program or read a
// namespace import it.
package netns
