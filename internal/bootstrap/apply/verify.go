package apply

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

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/hostfacts/gather"
	"github.com/corium/corium-agent/internal/retry"
)

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

// Verify checks the device against what its file states: that it exists,
// that its public key is the one derived from the configured private key,
// its listen port (when the file sets one), its peer set, and each peer's
// allowed IPs, keepalive and whether it has a preshared key; then, waiting a
// bounded time as they may lag wg-quick's return, that every configured
// address is on the link, that the link has the file's MTU, and that each
// peer has the endpoint the file states. Every mismatch is reported, with
// where to look.
func (v Verifier) Verify(ctx context.Context, e plan.Device) error {
	unit := plan.WgQuickUnit(e.Name)
	dev, err := v.Devices.Device(e.Name)
	if err != nil {
		return fmt.Errorf("verifying wireguard %s: reading the device: %w; see journalctl -u %s", e.Name, err, unit)
	}
	var problems []error
	if dev.PublicKey != wgtypes.Key(e.PublicKey) {
		problems = append(problems, fmt.Errorf("public key is %s, want %s (derived from the configured private key)", dev.PublicKey, e.PublicKey))
	}
	if e.ListenPort != 0 && dev.ListenPort != e.ListenPort {
		problems = append(problems, fmt.Errorf("listen port is %d, want %d", dev.ListenPort, e.ListenPort))
	}
	problems = append(problems, comparePeers(dev.Peers, e.Peers)...)
	if err := v.waitSettled(ctx, e); err != nil {
		problems = append(problems, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("verifying wireguard %s: %w; see journalctl -u %s and wg show %s", e.Name, errors.Join(problems...), unit, e.Name)
	}
	return nil
}

func comparePeers(live []wgtypes.Peer, want []plan.Peer) []error {
	byKey := make(map[wgtypes.Key]*wgtypes.Peer, len(live))
	for i := range live {
		byKey[live[i].PublicKey] = &live[i]
	}
	var problems []error
	wanted := make(map[wgtypes.Key]bool, len(want))
	for _, w := range want {
		wanted[wgtypes.Key(w.PublicKey)] = true
		p := byKey[wgtypes.Key(w.PublicKey)]
		if p == nil {
			problems = append(problems, fmt.Errorf("peer %s is configured but not on the device", w.PublicKey))
			continue
		}
		problems = append(problems, comparePeer(*p, w)...)
	}
	for _, p := range live {
		if !wanted[p.PublicKey] {
			problems = append(problems, fmt.Errorf("peer %s is on the device but not configured", p.PublicKey))
		}
	}
	return problems
}

// comparePeer compares what syncconf and setconf leave on a peer. The
// preshared key is compared by presence only and never shown.
func comparePeer(p wgtypes.Peer, w plan.Peer) []error {
	var problems []error
	if w.AllowedIPs != nil {
		var have []string
		for _, n := range p.AllowedIPs {
			have = append(have, n.String())
		}
		got, _ := plan.PrefixSet(have, true)
		if !slices.Equal(got, w.AllowedIPs) {
			problems = append(problems, fmt.Errorf("peer %s: allowed IPs are %s, want %s", w.PublicKey, orNone(got), orNone(w.AllowedIPs)))
		}
	}
	if w.Keepalive != nil {
		if have := int(p.PersistentKeepaliveInterval / time.Second); have != *w.Keepalive {
			problems = append(problems, fmt.Errorf("peer %s: persistent keepalive is %s, want %s", w.PublicKey, seconds(have), seconds(*w.Keepalive)))
		}
	}
	if w.PresharedKey != nil {
		switch has := p.PresharedKey != (wgtypes.Key{}); {
		case has && !*w.PresharedKey:
			problems = append(problems, fmt.Errorf("peer %s: has a preshared key, and the file sets none", w.PublicKey))
		case !has && *w.PresharedKey:
			problems = append(problems, fmt.Errorf("peer %s: has no preshared key, and the file sets one", w.PublicKey))
		}
	}
	return problems
}

func orNone(ps []netip.Prefix) string {
	if len(ps) == 0 {
		return "none"
	}
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return strings.Join(out, ", ")
}

func seconds(s int) string {
	if s == 0 {
		return "off"
	}
	return strconv.Itoa(s) + "s"
}

// waitSettled polls until the link carries every configured address and
// the file's MTU and each peer has its configured endpoint, or the wait runs
// out.
func (v Verifier) waitSettled(ctx context.Context, e plan.Device) error {
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
		problems = append(problems, v.endpointProblems(e)...)
		if len(problems) > 0 {
			return retry.NotYet(errors.Join(problems...))
		}
		return nil
	})
}

// endpointProblems compares each peer's endpoint with the file's. A peer
// that has completed a handshake is left out: WireGuard moves a peer's
// endpoint to wherever its authenticated packets come from (roaming), so
// from then on the endpoint is the network's, not the file's. The check is
// retried, so a peer caught between its first packet and the handshake's
// completion settles.
func (v Verifier) endpointProblems(e plan.Device) []error {
	var want []plan.Peer
	for _, p := range e.Peers {
		if p.Endpoint.IsValid() {
			want = append(want, p)
		}
	}
	if len(want) == 0 {
		return nil
	}
	dev, err := v.Devices.Device(e.Name)
	if err != nil {
		return []error{fmt.Errorf("reading the device again for its endpoints: %w", err)}
	}
	var problems []error
	for _, w := range want {
		for _, p := range dev.Peers {
			if p.PublicKey != wgtypes.Key(w.PublicKey) || !p.LastHandshakeTime.IsZero() {
				continue
			}
			have := "none"
			if p.Endpoint != nil {
				ap := p.Endpoint.AddrPort()
				if ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port()); ap == w.Endpoint {
					continue
				}
				have = ap.String()
			}
			problems = append(problems, fmt.Errorf("peer %s: endpoint is %s, want %s", w.PublicKey, have, w.Endpoint))
		}
	}
	return problems
}

func missingAddresses(links LinkAddrs, link netlink.Link, e plan.Device) ([]string, error) {
	addrs, err := links.AddrList(link, netlink.FAMILY_ALL)
	if err != nil {
		return nil, fmt.Errorf("listing addresses of %s: %w", e.Name, err)
	}
	var missing []string
	for _, want := range e.Addresses {
		found := false
		for _, a := range addrs {
			if p, ok := gather.LinkPrefix(a); ok && p == want {
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
