package plan

import (
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// Device is what a live WireGuard interface must look like after wg-quick
// brought it up from its file: what the file states, as far as wgctrl and
// netlink report it. It holds no secret: the public key is derived from the
// private key at render time, and of a preshared key only its presence is
// kept. A zero field is not checked.
type Device struct {
	Name       string         `json:"name"`
	PublicKey  Key            `json:"publicKey"`
	ListenPort int            `json:"listenPort,omitempty"` // 0: not in the file, any port will do
	MTU        int            `json:"mtu,omitempty"`        // 0: not checked
	Addresses  []netip.Prefix `json:"addresses,omitempty"`
	Peers      []Peer         `json:"peers,omitempty"`
}

// Peer is one [Peer] of the file.
type Peer struct {
	PublicKey Key `json:"publicKey"`
	// Endpoint is checked when the file states an IP endpoint; a host name
	// is resolved by wg, and the verifier does no DNS of its own.
	Endpoint netip.AddrPort `json:"endpoint,omitzero"`
	// AllowedIPs are compared as a set of masked prefixes, as the device
	// stores them; nil: not checked.
	AllowedIPs []netip.Prefix `json:"allowedIPs,omitempty"`
	// Keepalive is in seconds, 0 when the file has none; nil: not checked.
	Keepalive *int `json:"keepalive,omitempty"`
	// PresharedKey says whether the file sets one; nil: not checked.
	PresharedKey *bool `json:"presharedKey,omitempty"`
}

// Key is a WireGuard public key, in base64 as wg prints it.
type Key wgtypes.Key

func (k Key) String() string { return wgtypes.Key(k).String() }

// MarshalText spells the key as wg does.
func (k Key) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a key spelled as wg does.
func (k *Key) UnmarshalText(b []byte) error {
	parsed, err := wgtypes.ParseKey(string(b))
	if err != nil {
		return fmt.Errorf("not a WireGuard key")
	}
	*k = Key(parsed)
	return nil
}

// Words is the device as a plan, a log line and the status file show it:
// the name first, then key=value pairs, a peer's own following its peer=.
func (d Device) Words() []string {
	words := []string{d.Name, "publicKey=" + d.PublicKey.String()}
	if d.ListenPort != 0 {
		words = append(words, "listenPort="+strconv.Itoa(d.ListenPort))
	}
	if d.MTU != 0 {
		words = append(words, "mtu="+strconv.Itoa(d.MTU))
	}
	for _, a := range d.Addresses {
		words = append(words, "address="+a.String())
	}
	for _, p := range d.Peers {
		words = append(words, "peer="+p.PublicKey.String())
		if p.Endpoint.IsValid() {
			words = append(words, "endpoint="+p.Endpoint.String())
		}
		if p.AllowedIPs != nil {
			ips := make([]string, len(p.AllowedIPs))
			for i, ip := range p.AllowedIPs {
				ips[i] = ip.String()
			}
			words = append(words, "allowedIPs="+strings.Join(ips, ","))
		}
		if p.Keepalive != nil {
			words = append(words, "keepalive="+Keepalive(*p.Keepalive))
		}
		if p.PresharedKey != nil {
			words = append(words, "presharedKey="+map[bool]string{true: "set", false: "unset"}[*p.PresharedKey])
		}
	}
	return words
}

// Keepalive spells a keepalive as `wg show` does: off, or seconds.
func Keepalive(s int) string {
	if s == 0 {
		return "off"
	}
	return strconv.Itoa(s)
}

// WgQuickUnit is the wg-quick template instance that brings up interface
// name: the unit the agent starts for a device, and the one status and
// every message about the device name.
func WgQuickUnit(name string) string { return "wg-quick@" + name + ".service" }

// PrefixSet parses prefixes into a sorted set, so the order they are
// written in does not count as a change; masked drops host bits (routes),
// unmasked keeps them (an interface's own addresses).
func PrefixSet(list []string, masked bool) ([]netip.Prefix, bool) {
	out := make([]netip.Prefix, 0, len(list))
	for _, s := range list {
		p, err := netip.ParsePrefix(s)
		if err != nil {
			return nil, false
		}
		if masked {
			p = p.Masked()
		}
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b netip.Prefix) int {
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c
		}
		return a.Bits() - b.Bits()
	})
	return slices.Compact(out), true
}
