package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/vishvananda/netlink"
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/schema"
)

// DeviceExpectation is what a live WireGuard interface must look like after
// wg-quick brought it up. It holds no secret: the public key is derived from
// the private key at render time, so the verify action can carry it in the
// plan as text.
type DeviceExpectation struct {
	Name       string
	PublicKey  wgtypes.Key
	ListenPort int // 0: not configured, any port will do
	MTU        int // the file's; 0: not checked (arguments of an older run)
	Peers      []wgtypes.Key
	Addresses  []netip.Prefix
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
		e.Peers = append(e.Peers, k)
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

// Args is the expectation as the verify action's arguments: the interface
// name first, then key=value pairs.
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
		args = append(args, "peer="+p.String())
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
			e.Peers = append(e.Peers, k)
		default:
			err = errors.New("unknown key")
		}
		if err != nil {
			return DeviceExpectation{}, fmt.Errorf("parsing verify-wireguard argument %q: %w", arg, err)
		}
	}
	return e, nil
}

// WireGuardDevices reads a live device; *wgctrl.Client is one.
type WireGuardDevices interface {
	Device(name string) (*wgtypes.Device, error)
}

// LinkAddrs reads a link, its MTU and its addresses; *netlink.Handle is one, and
// netlink.NewHandleAt reads another network namespace.
type LinkAddrs interface {
	LinkByName(name string) (netlink.Link, error)
	AddrList(link netlink.Link, family int) ([]netlink.Addr, error)
}

// DefaultAddressWait bounds the wait for the configured addresses to appear
// on a link after wg-quick returned.
const DefaultAddressWait = 10 * time.Second

// Verifier checks live WireGuard interfaces against their expectation.
type Verifier struct {
	Devices WireGuardDevices
	Links   LinkAddrs
	// AddressWait bounds the wait for addresses (DefaultAddressWait when 0).
	AddressWait time.Duration
}

// Verify checks that the device exists, that its public key is the one
// derived from the configured private key, that its listen port and peer set
// match, and that every configured address is on the link and the link has
// the file's MTU (waiting a bounded time for them). Every mismatch is
// reported, with where to look.
func (v Verifier) Verify(ctx context.Context, e DeviceExpectation) error {
	unit := WgQuickUnit(e.Name)
	dev, err := v.Devices.Device(e.Name)
	if err != nil {
		return fmt.Errorf("verifying wireguard %s: reading the device: %w; see journalctl -u %s", e.Name, err, unit)
	}
	var problems []error
	if dev.PublicKey != e.PublicKey {
		problems = append(problems, fmt.Errorf("public key is %s, want %s (derived from the configured private key)", dev.PublicKey, e.PublicKey))
	}
	if e.ListenPort != 0 && dev.ListenPort != e.ListenPort {
		problems = append(problems, fmt.Errorf("listen port is %d, want %d", dev.ListenPort, e.ListenPort))
	}
	problems = append(problems, comparePeers(dev.Peers, e.Peers)...)
	if err := v.waitAddresses(ctx, e); err != nil {
		problems = append(problems, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("verifying wireguard %s: %w; see journalctl -u %s and wg show %s", e.Name, errors.Join(problems...), unit, e.Name)
	}
	return nil
}

func comparePeers(live []wgtypes.Peer, want []wgtypes.Key) []error {
	have := make([]wgtypes.Key, 0, len(live))
	for _, p := range live {
		have = append(have, p.PublicKey)
	}
	var problems []error
	for _, k := range want {
		if !slices.Contains(have, k) {
			problems = append(problems, fmt.Errorf("peer %s is configured but not on the device", k))
		}
	}
	for _, k := range have {
		if !slices.Contains(want, k) {
			problems = append(problems, fmt.Errorf("peer %s is on the device but not configured", k))
		}
	}
	return problems
}

// waitAddresses polls the link until it carries every configured address
// and the file's MTU, or the wait runs out.
func (v Verifier) waitAddresses(ctx context.Context, e DeviceExpectation) error {
	wait := v.AddressWait
	if wait <= 0 {
		wait = DefaultAddressWait
	}
	policy := retry.Policy{Wait: wait, Base: 50 * time.Millisecond, Cap: time.Second}
	return retry.Do(ctx, policy, func(context.Context) error {
		link, err := v.Links.LinkByName(e.Name)
		if err != nil {
			return retry.NotYet(fmt.Errorf("finding link %s: %w", e.Name, err))
		}
		missing, err := missingAddresses(v.Links, link, e)
		if err != nil {
			return retry.NotYet(err)
		}
		var problems []error
		if len(missing) > 0 {
			problems = append(problems, fmt.Errorf("addresses %s are not on the link", strings.Join(missing, ", ")))
		}
		if have := link.Attrs().MTU; e.MTU != 0 && have != e.MTU {
			problems = append(problems, fmt.Errorf("link MTU is %d, want %d", have, e.MTU))
		}
		if len(problems) > 0 {
			return retry.NotYet(errors.Join(problems...))
		}
		return nil
	})
}

func missingAddresses(links LinkAddrs, link netlink.Link, e DeviceExpectation) ([]string, error) {
	addrs, err := links.AddrList(link, netlink.FAMILY_ALL)
	if err != nil {
		return nil, fmt.Errorf("listing addresses of %s: %w", e.Name, err)
	}
	var missing []string
	for _, want := range e.Addresses {
		found := false
		for _, a := range addrs {
			if p, ok := prefixOf(a); ok && p == want {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, want.String())
		}
	}
	return missing, nil
}

func prefixOf(a netlink.Addr) (netip.Prefix, bool) {
	if a.IPNet == nil {
		return netip.Prefix{}, false
	}
	ip, ok := netip.AddrFromSlice(a.IP)
	if !ok {
		return netip.Prefix{}, false
	}
	ones, _ := a.Mask.Size()
	return netip.PrefixFrom(ip.Unmap(), ones), true
}
