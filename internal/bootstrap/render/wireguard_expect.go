package render

import (
	"fmt"
	"net/netip"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
)

// expectDevice derives what device wg must look like, brought up with mtu,
// from its private key.
func expectDevice(wg schema.WireGuard, priv wgtypes.Key, mtu int) (plan.Device, error) {
	e := plan.Device{Name: wg.Name, PublicKey: plan.Key(priv.PublicKey()), MTU: mtu}
	if wg.ListenPort != nil {
		e.ListenPort = *wg.ListenPort
	}
	for _, p := range wg.Peers {
		k, err := wgtypes.ParseKey(p.PublicKey)
		if err != nil {
			return plan.Device{}, fmt.Errorf("parsing a peer public key of %s: %w", wg.Name, err)
		}
		pe := plan.Peer{PublicKey: plan.Key(k), Keepalive: new(int), PresharedKey: new(bool)}
		if ap, err := netip.ParseAddrPort(p.Endpoint); err == nil {
			pe.Endpoint = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		}
		var ok bool
		if pe.AllowedIPs, ok = plan.PrefixSet(p.AllowedIPs, true); !ok {
			return plan.Device{}, fmt.Errorf("parsing the allowed IPs of peer %s of %s: not a list of CIDR prefixes", p.PublicKey, wg.Name)
		}
		if p.PersistentKeepalive != nil {
			*pe.Keepalive = *p.PersistentKeepalive
		}
		*pe.PresharedKey = hasPresharedKey(p)
		e.Peers = append(e.Peers, pe)
	}
	for _, a := range wg.Address {
		p, err := netip.ParsePrefix(a)
		if err != nil {
			return plan.Device{}, fmt.Errorf("parsing address %q of %s: %w", a, wg.Name, err)
		}
		e.Addresses = append(e.Addresses, p)
	}
	return e, nil
}
