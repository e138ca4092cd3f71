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
		// Both given: refused by secretPairs, as for every secret.
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
// C1: a line break, a tab, NUL, an escape).
func NoControlChars(s string) bool { return !strings.ContainsFunc(s, unicode.IsControl) }

// VRRPPassword reports whether keepalived reads s as it is where k0s writes
// it, unquoted, as the last word of the line `auth_pass {{ .AuthPass }}`
// (k0s v1.36.3+k0s.0 pkg/component/controller/cplb/cplb_templates.go:35):
// one word of printable characters. keepalived (2.2.7) splits the line at
// whitespace and takes the first word ("Qz7 Xw9" is read as "Qz7"), ends it
// at # or ! (a comment: "Qz7#Xw9" is read as "Qz7"), takes " as a quote
// and { } as a block's bounds (one of them breaks the file, which
// keepalived then refuses), replaces $NAME and ${NAME} with a definition
// of its own ($_RANDOM is a random number, another on each controller, so
// their adverts never match), takes a \ alone as the line's continuation
// (and reads no password), and a control character breaks the line. It is the one
// rule on the VRRP password's characters: validation checks ha.authPass
// with it (the vrrppass tag), render the password resolved from
// ha.authPassFrom; test/lab's TestKeepalivedReadsAuthPass holds keepalived
// to it.
func VRRPPassword(s string) bool {
	return !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsControl(r) || unicode.IsSpace(r) || strings.ContainsRune(KeepalivedBreaks, r)
	})
}

// KeepalivedBreaks are the printable characters keepalived's parser gives
// a meaning within a word (VRRPPassword): neither the VRRP password nor
// the VRRP interface's name, which k0s writes unquoted too
// (cplb_templates.go:17), may hold one.
const KeepalivedBreaks = "#!\"{}$\\"

// VRRPPasswordRule says what VRRPPassword takes and why, for the messages
// of both checks.
const VRRPPasswordRule = "one word of printable characters, without whitespace, a control character (a line break, a tab) or any of # ! \" { } $ \\: " +
	"k0s writes the password unquoted into keepalived's configuration, where a space ends the word keepalived takes, # and ! begin a comment, " +
	"\" a quote, { } a block, $ a variable keepalived replaces, and a \\ alone continues the line"

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
