package schema

import (
	"net/netip"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/corium/corium-agent/internal/finding"
)

// ha: the settings make sense only together, on a controller.
func (v *crossCheck) ha() {
	h := v.cfg.HA
	if !h.On() {
		set := map[string]bool{
			"ha.virtualIP":       h.VirtualIP != "",
			"ha.interface":       h.Interface != "",
			"ha.virtualRouterID": h.VirtualRouterID != nil,
			"ha.authPass":        h.AuthPass != nil,
			"ha.authPassFrom":    h.AuthPassFrom != nil,
			"ha.unicastPeers":    len(h.UnicastPeers) > 0,
		}
		for _, path := range []string{"ha.virtualIP", "ha.interface", "ha.virtualRouterID", "ha.authPass", "ha.authPassFrom", "ha.unicastPeers"} {
			if set[path] {
				v.errorf(path, "does nothing while ha.enabled is false; remove it or set ha.enabled: true")
			}
		}
		return
	}
	if validRole(v.cfg.Role) && (!v.cfg.Role.IsController() || v.cfg.Role == RoleSingle) {
		v.errorf("ha.enabled", "only a controller or controller+worker shares a control-plane virtual IP, not a %s", v.cfg.Role)
	}
	if h.VirtualIP == "" {
		v.errorf("ha.virtualIP", "is required when ha.enabled is true")
	}
	if v.cfg.Cluster.Endpoint == "" {
		v.errorf("cluster.endpoint", "is required when ha.enabled is true: clients and joining nodes use it (usually the virtual IP)")
	}
	switch {
	case h.AuthPass == nil && h.AuthPassFrom == nil:
		v.errorf("ha.authPass", "one of ha.authPass and ha.authPassFrom is required when ha.enabled is true")
	case h.AuthPass != nil && h.AuthPassFrom != nil:
		v.errorf("ha.authPassFrom", "give only one of ha.authPass and ha.authPassFrom")
	case h.AuthPass != nil && h.AuthPass.IsZero():
		v.errorf("ha.authPass", "must not be empty")
	case h.AuthPass != nil && len(h.AuthPass.Reveal()) > MaxAuthPassBytes && utf8.RuneCountInString(h.AuthPass.Reveal()) <= MaxAuthPassBytes:
		// The field rule counts characters; k0s counts bytes
		// (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/cplb.go:180).
		v.errorf("ha.authPass", "is longer than %d bytes: k0s counts bytes, and a character outside ASCII takes more than one", MaxAuthPassBytes)
	}
	v.unicastFamilies()
	if h.Interface == "" || !v.isWireGuard(h.Interface) {
		return
	}
	v.warnf("ha.interface", "is a wireguard interface: allowedIPs are static, so a virtual IP on the overlay reaches only the peer whose allowedIPs hold it and cannot follow a failover; the underlay is usually the right place")
	if len(h.UnicastPeers) == 0 {
		v.errorf("ha.unicastPeers", "is required when ha.interface is a wireguard interface: multicast VRRP does not cross a tunnel")
	}
}

// MaxAuthPassBytes is keepalived's limit on the VRRP password, which k0s
// checks at install (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/cplb.go:180).
const MaxAuthPassBytes = 8

// NoControlChars reports whether s holds no control character (C0, DEL or
// C1: a line break, a tab, NUL, an escape). It is the one rule on the VRRP
// password's characters: validation checks ha.authPass with it (the
// nocontrol tag), render the password resolved from ha.authPassFrom.
func NoControlChars(s string) bool { return !strings.ContainsFunc(s, unicode.IsControl) }

// NoControlCharsWhy is why the VRRP password must hold no control
// character, for the messages of both checks.
const NoControlCharsWhy = "keepalived's configuration, which k0s writes the password into, is line-based"

// unicastFamilies: keepalived sends unicast adverts from one address, so
// the peers share its family, and a wireguard VRRP interface must have an
// address of it (k0s needs it as unicastSourceIP, cplb.go:194-196).
func (v *crossCheck) unicastFamilies() {
	h := v.cfg.HA
	var first netip.Addr
	for i, p := range h.UnicastPeers {
		a, err := netip.ParseAddr(p)
		if err != nil {
			return // the field rule reports it
		}
		if !first.IsValid() {
			first = a
		} else if a.Is4() != first.Is4() {
			v.errorf(finding.Path("ha.unicastPeers").Index(i).String(), "is %s and ha.unicastPeers[0] %s: keepalived sends unicast adverts from one address, so every peer must be of its family", family(a), family(first))
		}
	}
	if !first.IsValid() {
		return
	}
	for i, wg := range v.cfg.WireGuard {
		if wg.Name != h.Interface {
			continue
		}
		for _, s := range wg.Address {
			if p, err := netip.ParsePrefix(s); err == nil && p.Addr().Is4() == first.Is4() {
				return
			}
		}
		v.errorf("ha.unicastPeers", "are %s, but the VRRP interface wireguard[%d] (%s) has no %s address for keepalived to send from", family(first), i, wg.Name, family(first))
	}
}

func (v *crossCheck) isWireGuard(name string) bool {
	for _, wg := range v.cfg.WireGuard {
		if wg.Name == name {
			return true
		}
	}
	return false
}
