package applytest

import (
	"fmt"
	"net"
	"os"
	"testing"
	"time"

	"github.com/vishvananda/netlink"
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
)

// Devices answers like wgctrl from devices built for the test; it is the
// verifier's apply.WireGuardDevices.
type Devices map[string]*wgtypes.Device

// Device is the named device, or an error wrapping os.ErrNotExist.
func (f Devices) Device(name string) (*wgtypes.Device, error) {
	if d, ok := f[name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("device %s: %w", name, os.ErrNotExist)
}

// Links answers like netlink, the verifier's apply.LinkAddrs; a link's
// addresses show up only after After reads, as they can lag wg-quick.
type Links struct {
	Addrs map[string][]string // CIDRs by link name; a link not in it does not exist
	MTU   map[string]int
	After int
	reads int
}

// LinkByName is the named link with its MTU.
func (f *Links) LinkByName(name string) (netlink.Link, error) {
	if _, ok := f.Addrs[name]; !ok {
		return nil, netlink.LinkNotFoundError{}
	}
	return &netlink.Dummy{LinkAttrs: netlink.LinkAttrs{Name: name, MTU: f.MTU[name]}}, nil
}

// AddrList is the link's addresses, none for the first After reads.
func (f *Links) AddrList(link netlink.Link, _ int) ([]netlink.Addr, error) {
	f.reads++
	if f.reads <= f.After {
		return nil, nil
	}
	var out []netlink.Addr
	for _, s := range f.Addrs[link.Attrs().Name] {
		ip, n, err := net.ParseCIDR(s)
		if err != nil {
			return nil, err
		}
		n.IP = ip
		out = append(out, netlink.Addr{IPNet: n})
	}
	return out, nil
}

// LiveDevicesFor builds devices and links exactly as the steps' verify
// actions expect them.
func LiveDevicesFor(t testing.TB, steps ...plan.Step) (Devices, *Links) {
	t.Helper()
	devs, links := Devices{}, &Links{Addrs: map[string][]string{}, MTU: map[string]int{}}
	for _, s := range steps {
		for _, a := range s.Actions {
			if a.Kind != plan.ActionVerifyDevice {
				continue
			}
			e := *a.Device
			d := &wgtypes.Device{Name: e.Name, PublicKey: wgtypes.Key(e.PublicKey), ListenPort: e.ListenPort}
			for _, p := range e.Peers {
				d.Peers = append(d.Peers, livePeer(p))
			}
			devs[e.Name] = d
			links.MTU[e.Name] = e.MTU
			for _, p := range e.Addresses {
				links.Addrs[e.Name] = append(links.Addrs[e.Name], p.String())
			}
		}
	}
	return devs, links
}

// livePeer is the peer wgctrl would report for a device that matches p.
func livePeer(p plan.Peer) wgtypes.Peer {
	lp := wgtypes.Peer{PublicKey: wgtypes.Key(p.PublicKey)}
	if p.Endpoint.IsValid() {
		lp.Endpoint = net.UDPAddrFromAddrPort(p.Endpoint)
	}
	for _, a := range p.AllowedIPs {
		lp.AllowedIPs = append(lp.AllowedIPs, net.IPNet{IP: a.Addr().AsSlice(), Mask: net.CIDRMask(a.Bits(), a.Addr().BitLen())})
	}
	if p.Keepalive != nil {
		lp.PersistentKeepaliveInterval = time.Duration(*p.Keepalive) * time.Second
	}
	if p.PresharedKey != nil && *p.PresharedKey {
		lp.PresharedKey = wgtypes.Key{1}
	}
	return lp
}

// DeviceOf is the device the step's first verify action checks; the test
// fails when the step has none.
func DeviceOf(t testing.TB, s plan.Step) plan.Device {
	t.Helper()
	for _, a := range s.Actions {
		if a.Kind == plan.ActionVerifyDevice {
			return *a.Device
		}
	}
	t.Fatal("no verify action in the step")
	return plan.Device{}
}
