package firewall

import (
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/schema"
)

// cniNetwork is where a CNI, as the agent configures it (see
// render.k0sNetwork), delivers pods' packets to the node, and how it
// carries them between nodes.
type cniNetwork struct {
	// podInterfaces carry packets from pods: this node's, and other nodes'
	// once decapsulated. A trailing "*" makes a prefix.
	podInterfaces []string
	// tunnels name the encapsulations between nodes (see tunnelMatches).
	tunnels []string
	// tunnelPort is the encapsulation's UDP port, when it has one: already a
	// guarded port, which must never be made public.
	tunnelPort *Port
}

var cniNetworks = map[schema.CNI]cniNetwork{
	// kube-router, with enable-overlay and overlay-type full: this node's
	// pods sit on veths enslaved to the bridge "kube-bridge" (the bridge of
	// its CNI config, cni/10-kuberouter.conf; KubeBridgeIf in
	// pkg/controllers/proxy/network_services_controller.go). Other nodes'
	// pods come out of one tunnel per peer, named "tun-" and 11 hex digits
	// of a hash of the peer's address (GenerateTunnelName in
	// pkg/tunnels/linux_tunnels.go): mode ipip for IPv4, ip6tnl for IPv6,
	// which netlink creates in "any" mode, taking IPv4 and IPv6 inside
	// (createIPIPTunnel, same file).
	schema.CNIKubeRouter: {
		podInterfaces: []string{"kube-bridge", "tun-*"},
		tunnels:       []string{tunnelIPIP, tunnelIP6IP6},
	},
	// calico, with vxlan mode and overlay Always: this node's pods sit on
	// veths named by Felix's interfacePrefix, "cali" by default
	// (InterfacePrefix in felix/config/config_params.go), each with a /32
	// or /128 route; other nodes' pods come out of "vxlan.calico" and
	// "vxlan-v6.calico" (VXLANIfaceNameV4 and VXLANIfaceNameV6 in
	// felix/dataplane/linux/dataplanedefs/dataplane_defs.go), fed by
	// VXLAN on 4789/udp, which is a guarded port.
	schema.CNICalico: {
		podInterfaces: []string{"cali*", "vxlan.calico", "vxlan-v6.calico"},
		tunnelPort:    &Port{Number: 4789, Proto: "udp"},
	},
	// A custom CNI's interfaces are unknown: pod sources are accepted on
	// lo and the overlay only (schema warns what that breaks).
	schema.CNICustom: {},
}

// The encapsulations a guard may drop off the overlay.
const (
	tunnelIPIP   = "ipip"   // IPv4 in IPv4
	tunnelIP6IP6 = "ip6ip6" // IPv6 or IPv4 in IPv6
)

// tunnelMatch is one kind of encapsulated packet: its outer family and the
// protocol (IPv4) or next header (IPv6) that says what it carries.
type tunnelMatch struct {
	family, proto byte
}

var tunnelMatches = map[string][]tunnelMatch{
	tunnelIPIP:   {{unix.NFPROTO_IPV4, unix.IPPROTO_IPIP}},
	tunnelIP6IP6: {{unix.NFPROTO_IPV6, unix.IPPROTO_IPV6}, {unix.NFPROTO_IPV6, unix.IPPROTO_IPIP}},
}
