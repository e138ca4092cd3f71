package nft

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// The pod network of the CNI labs: this node holds the /24 (/64) at 0, a
// peer node the one at 9, and nobody the one at 77.
const (
	podCIDR4 = "10.244.0.0/16"
	podCIDR6 = "fd00:10:244::/56"
)

// kubeBridge sets a pod up as kube-router's CNI config does (the bridge
// plugin on "kube-bridge"): a veth whose node end is enslaved to the bridge,
// which holds the node's gateway address of its pod range.
func kubeBridge(t *testing.T, node, pod *netns.Netns, bridgeAddrs, podAddrs string) {
	t.Helper()
	netns.Veth(t, node, "veth-pod", "", pod, "eth0", podAddrs)
	node.Run(t, "ip", "link", "add", "kube-bridge", "type", "bridge")
	node.Run(t, "ip", "link", "set", "veth-pod", "master", "kube-bridge")
	addAddrs(t, node, "kube-bridge", bridgeAddrs)
	node.Run(t, "ip", "link", "set", "kube-bridge", "up")
}

// kubeRouterTunnelName is kube-router's name for its tunnel to a peer node
// (GenerateTunnelName in pkg/tunnels/linux_tunnels.go, v2.7.1): "tun-" and
// the first 11 hex digits of the SHA-256 of the peer's address without its
// dots and colons.
func kubeRouterTunnelName(peer string) string {
	sum := sha256.Sum256([]byte(strings.NewReplacer(".", "", ":", "").Replace(peer)))
	return "tun-" + fmt.Sprintf("%x", sum)[:11]
}

// kubeRouterTunnel stands in for kube-router's tunnel to peer: on the node,
// a link named exactly as kube-router names it, with the route to the peer's
// pod range through it; behind it, a namespace holding one of the peer's
// pods. kube-router makes an ipip (IPv4) or ip6tnl (IPv6) device there; this
// kernel has neither, so the link is a veth, and the pod's packets come in
// on tun-... as decapsulation would hand them over.
func kubeRouterTunnel(t *testing.T, node, pod *netns.Netns, peer, podAddr, podRange string) {
	t.Helper()
	name := kubeRouterTunnelName(peer)
	netns.Veth(t, node, name, "", pod, "eth0", podAddr)
	if strings.Contains(podRange, ":") {
		addAddrs(t, node, name, "fe80::1/64")
		pod.Run(t, "ip", "-6", "route", "add", "default", "via", "fe80::1", "dev", "eth0")
		node.Run(t, "ip", "-6", "route", "add", podRange, "dev", name)
		return
	}
	// The node answers ARP for any of its addresses on any link.
	pod.Run(t, "ip", "route", "add", "default", "dev", "eth0")
	node.Run(t, "ip", "route", "add", podRange, "dev", name)
}

// caliVeth sets a pod up as calico's CNI plugin does: the node end of its
// veth is "cali" and 11 hex digits, holds no IPv4 address and answers ARP
// for the pod's gateway 169.254.1.1 by proxy; the node routes the pod's /32
// and /128 to it. (calico's IPv6 gateway is the link-local address its MAC
// ee:ee:ee:ee:ee:ee makes; a fixed link-local address stands in.)
func caliVeth(t *testing.T, node, pod *netns.Netns, name, pod4, pod6 string) {
	t.Helper()
	netns.Veth(t, node, name, "", pod, "eth0", pod4+"/32 "+pod6+"/128")
	// Proxy ARP answers only on a node that forwards, as every node does.
	node.Run(t, "sysctl", "-qw", "net.ipv4.ip_forward=1", "net.ipv4.conf."+name+".proxy_arp=1")
	addAddrs(t, node, name, "fe80::1/64")
	node.Run(t, "ip", "route", "add", pod4+"/32", "dev", name)
	node.Run(t, "ip", "-6", "route", "add", pod6+"/128", "dev", name)
	pod.Run(t, "ip", "route", "add", "169.254.1.1", "dev", "eth0", "scope", "link")
	pod.Run(t, "ip", "route", "add", "default", "via", "169.254.1.1", "dev", "eth0")
	pod.Run(t, "ip", "-6", "route", "add", "default", "via", "fe80::1", "dev", "eth0")
}

// vxlanEnd is one node's end of calico's VXLAN: the device, as Felix makes
// it (VNI 4096, port 4789, learning off, the node address as local), with
// the node's tunnel address on it.
type vxlanEnd struct {
	ns                *netns.Netns
	dev, mac, tunnel  string
	underlay, overlay string // the node address and the link it is on
}

func (e vxlanEnd) create(t *testing.T) {
	t.Helper()
	e.ns.Run(t, "ip", "link", "add", e.dev, "address", e.mac, "type", "vxlan", "id", "4096",
		"local", e.underlay, "dev", e.overlay, "dstport", "4789", "nolearning")
	addAddrs(t, e.ns, e.dev, e.tunnel)
	e.ns.Run(t, "ip", "link", "set", e.dev, "up")
}

// route sends podRange to the peer's end the way Felix programs it: a
// permanent neighbour and forwarding entry for the peer's VTEP and an
// onlink route via its tunnel address.
func (e vxlanEnd) route(t *testing.T, peer vxlanEnd, podRange string) {
	t.Helper()
	gw, _, _ := strings.Cut(peer.tunnel, "/")
	e.ns.Run(t, "ip", "neigh", "add", gw, "lladdr", peer.mac, "dev", e.dev, "nud", "permanent")
	e.ns.Run(t, "bridge", "fdb", "append", peer.mac, "dev", e.dev, "dst", peer.underlay, "self", "permanent")
	e.ns.Run(t, "ip", "route", "add", podRange, "via", gw, "dev", e.dev, "onlink")
}

// calicoVXLAN joins the node and its overlay peer with calico's VXLAN
// devices of both families, over the overlay-named link between them, and
// gives the peer one pod address per family (on its loopback) whose packets
// reach the node through the tunnel.
func calicoVXLAN(t *testing.T, l *lab) {
	t.Helper()
	node4 := vxlanEnd{l.srv, "vxlan.calico", "66:cc:00:00:00:01", "10.244.0.1/32", srvOvl4, "wg0"}
	peer4 := vxlanEnd{l.ovl, "vxlan.calico", "66:cc:00:00:00:02", "10.244.9.1/32", "198.51.100.2", "eth0"}
	node6 := vxlanEnd{l.srv, "vxlan-v6.calico", "66:cc:00:00:00:03", "fd00:10:244::1/128", srvOvl6, "wg0"}
	peer6 := vxlanEnd{l.ovl, "vxlan-v6.calico", "66:cc:00:00:00:04", "fd00:10:244:9::1/128", "2001:db8:2::2", "eth0"}
	for _, e := range []vxlanEnd{node4, peer4, node6, peer6} {
		e.create(t)
	}
	node4.route(t, peer4, "10.244.9.0/24")
	peer4.route(t, node4, "10.244.0.0/24")
	node6.route(t, peer6, "fd00:10:244:9::/64")
	peer6.route(t, node6, "fd00:10:244::/64")
	addAddrs(t, l.ovl, "lo", "10.244.9.5/32 fd00:10:244:9::5/128")
}

func addAddrs(t *testing.T, ns *netns.Netns, dev, addrs string) {
	t.Helper()
	for _, a := range strings.Fields(addrs) {
		args := []string{"ip", "addr", "add", a, "dev", dev}
		if strings.Contains(a, ":") {
			args = append(args, "nodad")
		}
		ns.Run(t, args...)
	}
}
