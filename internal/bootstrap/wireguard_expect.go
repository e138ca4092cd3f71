package bootstrap

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/schema"
)

// DeviceExpectation is what a live WireGuard interface must look like after
// wg-quick brought it up from its file: what the file states, as far as
// wgctrl and netlink report it. It holds no secret: the public key is
// derived from the private key at render time, and of a preshared key only
// its presence is kept, so the verify action can carry it in the plan as
// text. A zero field is not checked, so arguments from an older run still
// parse and mean what they meant.
type DeviceExpectation struct {
	Name       string
	PublicKey  wgtypes.Key
	ListenPort int // 0: not in the file, any port will do
	MTU        int // 0: not checked
	Peers      []PeerExpectation
	Addresses  []netip.Prefix
}

// PeerExpectation is one [Peer] of the file.
type PeerExpectation struct {
	PublicKey wgtypes.Key
	// Endpoint is checked when the file states an IP endpoint; a host name
	// is resolved by wg, and the verifier does no DNS of its own.
	Endpoint netip.AddrPort
	// AllowedIPs are compared as a set of masked prefixes, as the device
	// stores them; nil: not checked.
	AllowedIPs []netip.Prefix
	// Keepalive is in seconds, 0 when the file has none; nil: not checked.
	Keepalive *int
	// PresharedKey says whether the file sets one; nil: not checked.
	PresharedKey *bool
}

// expectDevice derives the expectation of interface wg, brought up with mtu,
// from its private key.
func expectDevice(wg schema.WireGuard, priv wgtypes.Key, mtu int) (DeviceExpectation, error) {
	e := DeviceExpectation{Name: wg.Name, PublicKey: priv.PublicKey(), MTU: mtu}
	if wg.ListenPort != nil {
		e.ListenPort = *wg.ListenPort
	}
	for _, p := range wg.Peers {
		k, err := wgtypes.ParseKey(p.PublicKey)
		if err != nil {
			return DeviceExpectation{}, fmt.Errorf("parsing a peer public key of %s: %w", wg.Name, err)
		}
		pe := PeerExpectation{PublicKey: k, Keepalive: new(int), PresharedKey: new(bool)}
		if ap, err := netip.ParseAddrPort(p.Endpoint); err == nil {
			pe.Endpoint = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		}
		var ok bool
		if pe.AllowedIPs, ok = prefixSet(p.AllowedIPs, true); !ok {
			return DeviceExpectation{}, fmt.Errorf("parsing the allowed IPs of peer %s of %s: not a list of CIDR prefixes", p.PublicKey, wg.Name)
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
			return DeviceExpectation{}, fmt.Errorf("parsing address %q of %s: %w", a, wg.Name, err)
		}
		e.Addresses = append(e.Addresses, p)
	}
	return e, nil
}

func prefixStrings(ps []netip.Prefix) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// Args is the expectation as the verify action's arguments: the interface
// name first, then key=value pairs; a peer's own pairs follow its peer=.
func (e DeviceExpectation) Args() []string {
	args := []string{e.Name, "publicKey=" + e.PublicKey.String()}
	if e.ListenPort != 0 {
		args = append(args, "listenPort="+strconv.Itoa(e.ListenPort))
	}
	if e.MTU != 0 {
		args = append(args, "mtu="+strconv.Itoa(e.MTU))
	}
	for _, a := range e.Addresses {
		args = append(args, "address="+a.String())
	}
	for _, p := range e.Peers {
		args = append(args, "peer="+p.PublicKey.String())
		if p.Endpoint.IsValid() {
			args = append(args, "endpoint="+p.Endpoint.String())
		}
		if p.AllowedIPs != nil {
			args = append(args, "allowedIPs="+strings.Join(prefixStrings(p.AllowedIPs), ","))
		}
		if p.Keepalive != nil {
			args = append(args, "keepalive="+keepaliveArg(*p.Keepalive))
		}
		if p.PresharedKey != nil {
			args = append(args, "presharedKey="+presenceArg[*p.PresharedKey])
		}
	}
	return args
}

// ParseDeviceExpectation reads the verify action's arguments back.
func ParseDeviceExpectation(args []string) (DeviceExpectation, error) {
	if len(args) == 0 || strings.Contains(args[0], "=") {
		return DeviceExpectation{}, errors.New("parsing verify-wireguard arguments: the interface name comes first")
	}
	e := DeviceExpectation{Name: args[0]}
	for _, arg := range args[1:] {
		key, value, _ := strings.Cut(arg, "=")
		if err := e.parseArg(key, value); err != nil {
			return DeviceExpectation{}, fmt.Errorf("parsing verify-wireguard argument %q: %w", arg, err)
		}
	}
	return e, nil
}

func (e *DeviceExpectation) parseArg(key, value string) error {
	var err error
	switch key {
	case "publicKey":
		e.PublicKey, err = wgtypes.ParseKey(value)
	case "listenPort":
		e.ListenPort, err = strconv.Atoi(value)
	case "mtu":
		e.MTU, err = strconv.Atoi(value)
	case "address":
		var p netip.Prefix
		p, err = netip.ParsePrefix(value)
		e.Addresses = append(e.Addresses, p)
	case "peer":
		var k wgtypes.Key
		k, err = wgtypes.ParseKey(value)
		e.Peers = append(e.Peers, PeerExpectation{PublicKey: k})
	case "endpoint", "allowedIPs", "keepalive", "presharedKey":
		if len(e.Peers) == 0 {
			return errors.New("belongs to a peer, and no peer= comes before it")
		}
		return e.Peers[len(e.Peers)-1].parseArg(key, value)
	default:
		err = errors.New("unknown key")
	}
	return err
}

func (p *PeerExpectation) parseArg(key, value string) error {
	var err error
	switch key {
	case "endpoint":
		p.Endpoint, err = netip.ParseAddrPort(value)
	case "allowedIPs":
		var list []string
		if value != "" {
			list = strings.Split(value, ",")
		}
		var ok bool
		if p.AllowedIPs, ok = prefixSet(list, true); !ok {
			return errors.New("not a list of CIDR prefixes")
		}
	case "keepalive":
		v := 0
		if value != "off" {
			v, err = strconv.Atoi(value)
		}
		p.Keepalive = &v
	case "presharedKey":
		v := value == presenceArg[true]
		if !v && value != presenceArg[false] {
			err = errors.New("want set or unset")
		}
		p.PresharedKey = &v
	}
	return err
}

// keepaliveArg spells a keepalive as `wg show` does: off, or seconds.
func keepaliveArg(s int) string {
	if s == 0 {
		return "off"
	}
	return strconv.Itoa(s)
}

// presenceArg says whether a preshared key is set; the key never shows.
var presenceArg = map[bool]string{true: "set", false: "unset"}
