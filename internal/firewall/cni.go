package firewall

import (
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/schema"
)

// cniNetwork is where a CNI, as the effective ClusterConfig runs it,
// delivers pods' packets to the node, and how it carries them between
// nodes. The UDP ports of its tunnels are k0s.Ports.Tunnel, guarded ports
// that are never made public.
type cniNetwork struct {
	// podInterfaces carry packets from pods: this node's, and other nodes'
	// once decapsulated. A trailing "*" makes a prefix.
	podInterfaces []string
	// tunnels name the encapsulations between nodes (see TunnelMatches).
	tunnels []string
}

// cniNetworkOf is the CNI's network as net has it configured; false for a
// CNI the guard does not know.
func cniNetworkOf(cni schema.CNI, net config.Network) (cniNetwork, bool) {
	switch cni {
	case schema.CNIKubeRouter:
		// This node's pods sit on veths enslaved to the bridge
		// "kube-bridge" (the bridge of its CNI config,
		// cni/10-kuberouter.conf; KubeBridgeIf in
		// pkg/controllers/proxy/network_services_controller.go). With its
		// overlay on, other nodes' pods come out of one tunnel per peer,
		// named "tun-" and 11 hex digits of a hash of the peer's address
		// (GenerateTunnelName in pkg/tunnels/linux_tunnels.go): mode ipip
		// for IPv4, ip6tnl for IPv6, which netlink creates in "any" mode,
		// taking IPv4 and IPv6 inside (createIPIPTunnel, same file). With
		// fou the same tunnels are fed from a UDP port
		// (--overlay-encap-port), a tunnel port of the guard's.
		if !net.KubeRouter.Overlay {
			return cniNetwork{podInterfaces: []string{"kube-bridge"}}, true
		}
		return cniNetwork{podInterfaces: []string{"kube-bridge", "tun-*"}, tunnels: []string{tunnelIPIP, tunnelIP6IP6}}, true
	case schema.CNICalico:
		// This node's pods sit on veths named by Felix's interfacePrefix,
		// "cali" by default (InterfacePrefix in
		// felix/config/config_params.go), each with a /32 or /128 route.
		pods := []string{"cali*"}
		switch net.Calico.Mode {
		case "vxlan":
			// Other nodes' pods come out of "vxlan.calico" and
			// "vxlan-v6.calico" (VXLANIfaceNameV4 and VXLANIfaceNameV6 in
			// felix/dataplane/linux/dataplanedefs/dataplane_defs.go), fed
			// by VXLAN on spec.network.calico.vxlanPort, a tunnel port.
			return cniNetwork{podInterfaces: append(pods, "vxlan.calico", "vxlan-v6.calico")}, true
		case "ipip":
			// Felix's IPv4 IP-in-IP device, "tunl0" (IPIPIfaceName, same
			// file): IP protocol 4, dropped off the overlay.
			return cniNetwork{podInterfaces: append(pods, "tunl0"), tunnels: []string{tunnelIPIP}}, true
		}
		// bird: routed natively, no tunnel.
		return cniNetwork{podInterfaces: pods}, true
	case schema.CNICustom:
		// A custom CNI's interfaces are unknown: pod sources are accepted
		// on lo and the overlay only (schema warns what that breaks).
		return cniNetwork{}, true
	}
	return cniNetwork{}, false
}

// The encapsulations a guard may drop off the overlay.
const (
	tunnelIPIP   = "ipip"   // IPv4 in IPv4
	tunnelIP6IP6 = "ip6ip6" // IPv6 or IPv4 in IPv6
)

// TunnelMatch is one kind of encapsulated packet: its outer family and the
// protocol (IPv4) or next header (IPv6) that says what it carries.
type TunnelMatch struct {
	Family, Proto byte
}

var TunnelMatches = map[string][]TunnelMatch{
	tunnelIPIP:   {{unix.NFPROTO_IPV4, unix.IPPROTO_IPIP}},
	tunnelIP6IP6: {{unix.NFPROTO_IPV6, unix.IPPROTO_IPV6}, {unix.NFPROTO_IPV6, unix.IPPROTO_IPIP}},
}
