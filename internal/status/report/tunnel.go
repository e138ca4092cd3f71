package report

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
)

// Unknown is the class of a peer whose device could not be read.
const Unknown Class = "unknown"

// Device states.
const (
	DevicePresent = "present"
	DeviceAbsent  = "absent"
)

// tunnel inspects one configured interface: its unit, its device found by
// name (a userspace device is a tuntap link, so never by link type), drift
// from the applied configuration, and every configured peer.
func (in *inspection) tunnel(wg schema.WireGuard) Interface {
	it := Interface{Name: wg.Name, Unit: plan.WgQuickUnit(wg.Name), Peers: []Peer{}}
	_, it.UnitState, _ = in.unitState(it.Unit)

	var dev *wgtypes.Device
	var err error
	if in.o.Devices == nil {
		err = errors.New(why(in.o.DevicesWhy))
	} else {
		dev, err = in.o.Devices.Device(wg.Name)
	}
	switch {
	case err == nil:
		it.Device = DevicePresent
	case errors.Is(err, os.ErrNotExist):
		it.Device = DeviceAbsent
	default:
		it.Device = "unknown: " + err.Error()
		if in.o.Devices != nil {
			in.unknown(wg.Name+" device", err.Error())
		}
	}
	if dev == nil {
		class := Missing
		if it.Device != DeviceAbsent {
			class = Unknown
		}
		for _, p := range wg.Peers {
			it.Peers = append(it.Peers, Peer{PublicKey: p.PublicKey, Address: overlayAddress(wg.Address, p.AllowedIPs), Endpoint: p.Endpoint, AllowedIPs: canonical(p.AllowedIPs, true), HandshakeAgeSeconds: -1, Class: class})
		}
		return it
	}

	it.PublicKey = dev.PublicKey.String()
	it.ListenPort = dev.ListenPort
	it.Drift = in.deviceDrift(wg, dev)
	link := (*hostfacts.InterfaceFacts)(nil)
	if in.facts != nil {
		link = in.facts.Interface(wg.Name)
	}
	if link != nil {
		for _, p := range link.Addresses {
			it.Addresses = append(it.Addresses, p.String())
		}
	}
	switch want := canonical(wg.Address, false); {
	case in.facts == nil:
		in.unknown(wg.Name+" addresses", in.factErr.Error())
	case link == nil:
		it.Drift = append(it.Drift, Drift{Field: "addresses", Want: strings.Join(want, " "), Have: "link is down or absent"})
	default:
		if have := ownAddresses(link.Addresses); !slices.Equal(want, have) {
			it.Drift = append(it.Drift, Drift{Field: "addresses", Want: strings.Join(want, " "), Have: strings.Join(have, " ")})
		}
	}

	// By key, once: an interface may carry thousands of peers.
	live := make(map[string]*wgtypes.Peer, len(dev.Peers))
	for i := range dev.Peers {
		live[dev.Peers[i].PublicKey.String()] = &dev.Peers[i]
	}
	configured := make(map[string]bool, len(wg.Peers))
	for _, p := range wg.Peers {
		configured[p.PublicKey] = true
		pe := in.peer(p, live[p.PublicKey], &it)
		pe.Address = overlayAddress(wg.Address, p.AllowedIPs)
		it.Peers = append(it.Peers, pe)
	}
	for _, l := range dev.Peers {
		if k := l.PublicKey.String(); !configured[k] {
			it.Drift = append(it.Drift, Drift{Field: "peers", Want: "absent", Have: k + " on the device, not configured"})
		}
	}
	return it
}

// deviceDrift compares the device's own fields with the configuration.
func (in *inspection) deviceDrift(wg schema.WireGuard, dev *wgtypes.Device) []Drift {
	var drift []Drift
	want, via, err := expectedPublicKey(in.o.Root, wg.Name)
	switch {
	case err != nil:
		in.unknown(wg.Name+" public key", err.Error())
	case dev.PublicKey != want:
		drift = append(drift, Drift{Field: "publicKey", Want: want.String() + " (from " + via + ")", Have: dev.PublicKey.String()})
	}
	if wg.ListenPort != nil && *wg.ListenPort != dev.ListenPort {
		drift = append(drift, Drift{Field: "listenPort", Want: strconv.Itoa(*wg.ListenPort), Have: strconv.Itoa(dev.ListenPort)})
	}
	return drift
}

// peer reports one configured peer (live is nil when the device lacks it)
// and adds its drift to the interface.
func (in *inspection) peer(p schema.Peer, live *wgtypes.Peer, it *Interface) Peer {
	out := Peer{PublicKey: p.PublicKey, Endpoint: p.Endpoint, AllowedIPs: canonical(p.AllowedIPs, true), HandshakeAgeSeconds: -1}
	if live == nil {
		out.Class = Missing
		it.Drift = append(it.Drift, Drift{Field: "peers", Want: p.PublicKey, Have: "absent from the device"})
		return out
	}
	if live.Endpoint != nil {
		out.LiveEndpoint = live.Endpoint.String()
	}
	if have := ipNets(live.AllowedIPs); !slices.Equal(out.AllowedIPs, have) {
		it.Drift = append(it.Drift, Drift{Field: "peers[" + p.PublicKey + "].allowedIPs", Want: strings.Join(out.AllowedIPs, " "), Have: strings.Join(have, " ")})
	}
	out.RxBytes, out.TxBytes = live.ReceiveBytes, live.TransmitBytes
	out.Class = Never
	if !live.LastHandshakeTime.IsZero() {
		out.LatestHandshake = live.LastHandshakeTime.UTC()
		age := max(in.now.Sub(live.LastHandshakeTime), 0)
		out.HandshakeAgeSeconds = int64(age / time.Second)
		out.Class = Reachable
		if age > HandshakeFresh {
			out.Class = Stale
		}
	}
	return out
}

// canonical is a list of prefixes sorted, and masked when mask is set (the
// kernel keeps allowed IPs masked, link addresses not); an unparsable entry
// is kept as written.
func canonical(list []string, mask bool) []string {
	out := make([]string, 0, len(list))
	for _, s := range list {
		if p, err := netip.ParsePrefix(strings.TrimSpace(s)); err == nil {
			if mask {
				p = p.Masked()
			}
			s = p.String()
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out
}

func ipNets(nets []net.IPNet) []string {
	out := make([]string, 0, len(nets))
	for _, n := range nets {
		ip, ok := netip.AddrFromSlice(n.IP)
		if !ok {
			continue
		}
		ones, _ := n.Mask.Size()
		out = append(out, netip.PrefixFrom(ip.Unmap(), ones).Masked().String())
	}
	slices.Sort(out)
	return out
}

// ownAddresses are a link's addresses as configured (host bits kept),
// leaving out IPv6 link-local ones the kernel adds by itself.
func ownAddresses(ps []netip.Prefix) []string {
	out := make([]string, 0, len(ps))
	for _, p := range ps {
		if !p.Addr().IsLinkLocalUnicast() {
			out = append(out, p.String())
		}
	}
	slices.Sort(out)
	return out
}
