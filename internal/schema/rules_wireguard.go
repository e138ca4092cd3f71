package schema

import (
	"net"
	"net/netip"

	"github.com/corium/corium-agent/internal/finding"
)

// minIPv6MTU is the smallest MTU IPv6 allows on a link (RFC 8200).
const minIPv6MTU = 1280

// wireguard: rules within each interface and across interfaces.
func (v *crossCheck) wireguard() {
	names := map[string]int{}
	nodeAddr := -1
	for i, wg := range v.cfg.WireGuard {
		base := finding.Path("wireguard").Index(i)
		if first, dup := names[wg.Name]; dup && wg.Name != "" {
			// Quoted only when valid: a wrong name may be anything pasted there.
			if isIfname(wg.Name) {
				v.errorf(base.Field("name").String(), "duplicates wireguard[%d].name (%s)", first, wg.Name)
			} else {
				v.errorf(base.Field("name").String(), "duplicates wireguard[%d].name", first)
			}
		} else {
			names[wg.Name] = i
		}
		if wg.NodeAddress {
			if nodeAddr >= 0 {
				v.errorf(base.Field("nodeAddress").String(), "only one interface carries the node address and wireguard[%d] already does", nodeAddr)
			} else {
				nodeAddr = i
			}
		}
		v.interfaceKeys(base, wg)
		v.interfaceReachable(base, wg)
		v.interfaceMTU(base, wg)
		v.peerEndpoints(base, wg)
		v.allowedIPs(base, wg)
	}
	v.nodeKeys()
	if len(v.cfg.WireGuard) > 0 && nodeAddr < 0 && v.joining() {
		v.warnf("wireguard", "no interface is marked nodeAddress, so this joining node registers an underlay address; if its peers reach it only over the overlay it will look healthy and not be")
	}
}

// interfaceReachable: WireGuard answers only known peers, so someone must
// know where to send the first handshake.
func (v *crossCheck) interfaceReachable(base finding.Path, wg WireGuard) {
	if len(wg.Peers) == 0 || wg.ListenPort != nil {
		return
	}
	for _, p := range wg.Peers {
		if p.Endpoint != "" {
			return
		}
	}
	v.errorf(base.String(), "nobody can open this tunnel: it has no listenPort and no peer has an endpoint; set one of them")
}

func (v *crossCheck) interfaceMTU(base finding.Path, wg WireGuard) {
	if wg.MTU == nil || *wg.MTU >= minIPv6MTU || *wg.MTU < 576 {
		return
	}
	for _, a := range wg.Address {
		if p, err := netip.ParsePrefix(a); err == nil && p.Addr().Is6() {
			v.errorf(base.Field("mtu").String(), "must be at least %d: the interface has an IPv6 address", minIPv6MTU)
			return
		}
	}
}

func (v *crossCheck) peerEndpoints(base finding.Path, wg WireGuard) {
	for j, p := range wg.Peers {
		if p.Endpoint == "" || !isHostPort(p.Endpoint) {
			continue
		}
		host, _, _ := net.SplitHostPort(p.Endpoint)
		if !isIPAddr(host) {
			v.warnf(base.Field("peers").Index(j).Field("endpoint").String(), "is a host name, which must resolve before the overlay is up; an IP address is safer")
		}
	}
}
