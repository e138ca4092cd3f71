package clustergen

import (
	"encoding/json"
	"fmt"
	"net/netip"
	"path"
	"strings"

	"github.com/corium/corium-agent/internal/hostfacts"
)

// Files are the set's files by name: each node's document (NAME.yaml) and
// its host facts (facts/NAME.json), as validate --cluster --facts facts
// reads them, and with Sites its topology (TopologyName).
func (s *Set) Files() map[string][]byte {
	out := map[string][]byte{}
	for _, n := range s.Nodes {
		out[n.File()] = []byte(n.Document())
		out[path.Join("facts", n.Name+".json")] = n.FactsJSON()
	}
	if s.Sites {
		out[TopologyName] = []byte(s.TopologyFile())
	}
	return out
}

// Document is the node's document.
func (n *Node) Document() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	w("role: %s", n.Role)
	w("cluster:")
	w("  name: %s", n.ClusterName)
	if n.Endpoint != "" {
		w("  endpoint: %s", n.Endpoint)
	}
	w("node:")
	w("  name: %s", n.Name)
	if n.PodCIDR != "" {
		w("network:")
		w("  podCIDR: %s", n.PodCIDR)
	}
	if n.Join != "" {
		w("join:")
		w("  tokenFrom: %s", n.Join)
	}
	if n.DataSource != "" {
		w("storage:")
		w("  type: kine")
		w("  dataSourceFrom: %s", n.DataSource)
	}
	if n.VIP != "" {
		w("ha:")
		w("  enabled: true")
		w("  virtualIP: %s", n.VIP)
		w("  interface: eth0")
		w("  virtualRouterID: 51")
		w("  authPassFrom: {credential: corium.vrrp}")
		w("  unicastPeers: [%s]", strings.Join(n.UnicastPeers, ", "))
	}
	if n.ClusterPorts != "open" {
		w("firewall:")
		w("  clusterPorts: %s", n.ClusterPorts)
	}
	w("wireguard:")
	w("  - name: wg0")
	w("    address: %s/24", n.Overlay)
	if n.ListenPort != 0 {
		w("    listenPort: %d", n.ListenPort)
	}
	if n.MTU != 0 {
		w("    mtu: %d", n.MTU)
	}
	w("    nodeAddress: true")
	switch n.KeyFrom {
	case "inline":
		w("    privateKey: %s", n.Private)
	case "file":
		w("    privateKeyFrom: {file: /etc/corium/wg0.key}")
		w("    publicKey: %s", n.Private.PublicKey())
	default:
		w("    privateKeyFrom: {credential: %s}", n.Credential)
		w("    publicKey: %s", n.Private.PublicKey())
	}
	w("    peers:")
	for _, p := range n.Peers {
		comment := ""
		if p.Name != "" {
			comment = " # " + p.Name
		}
		w("      - publicKey: %s%s", p.PublicKey, comment)
		if p.Endpoint != "" {
			w("        endpoint: %q", p.Endpoint) // [v6]:port is a flow sequence unquoted
		}
		w("        allowedIPs: [%s]", strings.Join(p.AllowedIPs, ", "))
		if p.Keepalive != 0 {
			w("        persistentKeepalive: %d", p.Keepalive)
		}
		if p.PresharedFrom != "" {
			w("        presharedKeyFrom: %s", p.PresharedFrom)
		}
	}
	return b.String()
}

// Facts are the node's host network before it boots: eth0 with its
// own address (its private one behind a 1:1 NAT), the default route, and the route to each endpoint it
// dials and each unicast peer.
func (n *Node) Facts() *hostfacts.Facts {
	src := n.own().Addr()
	f := &hostfacts.Facts{
		Interfaces:   []hostfacts.InterfaceFacts{{Name: "eth0", Addresses: []netip.Prefix{n.own()}}},
		DefaultRoute: &hostfacts.RouteFacts{Interface: "eth0", Source: src, MTU: n.RouteMTU},
	}
	seen := map[netip.Addr]bool{}
	add := func(a netip.Addr) {
		if !seen[a] && a != src {
			seen[a] = true
			f.PeerRoutes = append(f.PeerRoutes, hostfacts.PeerRoute{To: a, Interface: "eth0", Source: src, MTU: n.RouteMTU})
		}
	}
	for _, p := range n.Peers {
		if ap, err := netip.ParseAddrPort(p.Endpoint); err == nil {
			add(ap.Addr())
		}
	}
	for _, u := range n.UnicastPeers {
		if a, err := netip.ParseAddr(u); err == nil {
			add(a)
		}
	}
	return f
}

// FactsJSON is Facts as --facts reads it.
func (n *Node) FactsJSON() []byte {
	b, err := json.MarshalIndent(n.Facts(), "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
