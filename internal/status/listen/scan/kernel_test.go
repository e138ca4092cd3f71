package scan

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/status/listen"
)

// fakeDiag is a namespace as netlink shows it: its sockets (UDP unless a
// port is in tcp), none held by a process, its links and its FOU ports.
type fakeDiag struct {
	udp, tcp []int
	links    []netlink.Link
	fou      []int // FOU ports; nil: no FOU family in the kernel
	// interrupted counts the link dumps the kernel interrupts first.
	interrupted int
}

func socketsOn(ports []int) []*netlink.Socket {
	var out []*netlink.Socket
	for i, p := range ports {
		s := &netlink.Socket{State: udpClose, INode: uint32(1000 + i)}
		s.ID.Source, s.ID.SourcePort = net.IPv4zero, uint16(p)
		out = append(out, s)
	}
	return out
}

func (f *fakeDiag) SocketDiagUDP(family uint8) ([]*netlink.Socket, error) {
	if family != unix.AF_INET {
		return nil, nil
	}
	return socketsOn(f.udp), nil
}

func (f *fakeDiag) SocketDiagTCP(family uint8) ([]*netlink.Socket, error) {
	if family != unix.AF_INET {
		return nil, nil
	}
	out := socketsOn(f.tcp)
	for _, s := range out {
		s.State = tcpListen
	}
	return out, nil
}

func (f *fakeDiag) LinkByIndex(int) (netlink.Link, error) { return nil, errors.New("no such link") }

func (f *fakeDiag) LinkList() ([]netlink.Link, error) {
	if f.interrupted > 0 {
		f.interrupted--
		return nil, netlink.ErrDumpInterrupted
	}
	return f.links, nil
}

func (f *fakeDiag) GenlFamilyList() ([]*netlink.GenlFamily, error) {
	out := []*netlink.GenlFamily{{Name: "nlctrl"}, {Name: "wireguard"}}
	if f.fou != nil {
		out = append(out, &netlink.GenlFamily{Name: fouFamily})
	}
	return out, nil
}

func (f *fakeDiag) FouList(family int) ([]netlink.Fou, error) {
	if f.fou == nil {
		return nil, errors.New("asked for FOU ports the kernel has no family for")
	}
	var out []netlink.Fou
	for _, p := range f.fou {
		if family == unix.AF_INET {
			out = append(out, netlink.Fou{Family: family, Port: p})
		}
	}
	return out, nil
}

// fakeWireGuard has a device wg-port on each name.
type fakeWireGuard map[string]int

func (f fakeWireGuard) Device(name string) (*wgtypes.Device, error) {
	port, ok := f[name]
	if !ok {
		return nil, os.ErrNotExist
	}
	return &wgtypes.Device{Name: name, ListenPort: port}, nil
}

func up(name string) netlink.LinkAttrs {
	return netlink.LinkAttrs{Name: name, Flags: net.FlagUp}
}

// TestKernelSocketsNamed: a UDP socket no process holds is named by the
// kernel's device on its port (a VXLAN device that is up, a WireGuard
// device, a FOU port), and one on no such port is left unnamed, as is a
// TCP socket on such a port and one on a device that is down.
func TestKernelSocketsNamed(t *testing.T) {
	d := &fakeDiag{
		udp: []int{4789, 8472, 51821, 5555, 9999},
		tcp: []int{4789},
		links: []netlink.Link{
			&netlink.Vxlan{LinkAttrs: up("vxlan.calico"), Port: 4789},
			&netlink.Vxlan{LinkAttrs: netlink.LinkAttrs{Name: "flannel.1"}, Port: 8472}, // down
			&netlink.Wireguard{LinkAttrs: up("wireguard.cali")},
			&netlink.Wireguard{LinkAttrs: up("wg-gone")},
			&netlink.Device{LinkAttrs: up("eth0")},
		},
		fou:         []int{5555},
		interrupted: 1,
	}
	r := Reader{Diag: d, Proc: t.TempDir(), WireGuard: fakeWireGuard{"wireguard.cali": 51821}}
	socks, err := r.Listening()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]*listen.Kernel{}
	for _, s := range socks {
		if s.Owner != nil || s.Unread {
			t.Errorf("%d/%s held by %+v, unread %t", s.Port, s.Proto, s.Owner, s.Unread)
		}
		got[s.Proto+" "+strconv.Itoa(s.Port)] = s.Kernel
	}
	want := map[string]*listen.Kernel{
		"udp 4789":  {Kind: listen.KernelVXLAN, Device: "vxlan.calico"},
		"udp 8472":  nil,
		"udp 51821": {Kind: listen.KernelWireGuard, Device: "wireguard.cali"},
		"udp 5555":  {Kind: listen.KernelFOU},
		"udp 9999":  nil,
		"tcp 4789":  nil,
	}
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s not read", k)
		case (g == nil) != (w == nil) || g != nil && *g != *w:
			t.Errorf("%s named %+v, want %+v", k, g, w)
		}
	}

	// With a process whose descriptors cannot be read, a socket the
	// kernel's device holds is still known to be no process's; the others
	// may be that process's.
	if err := os.MkdirAll(filepath.Join(r.Proc, "12"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.Proc, "12", "fd"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	socks, err = r.Listening()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range socks {
		if named := s.Kernel != nil; s.Unread == named {
			t.Errorf("%d/%s with a process unread: kernel %+v, unread %t", s.Port, s.Proto, s.Kernel, s.Unread)
		}
	}

	// Without a FOU family nothing asks for FOU ports, and without a
	// WireGuard reader a WireGuard device's socket is left to the judge.
	d.fou = nil
	r.WireGuard = nil
	socks, err = r.Listening()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range socks {
		if (s.Port == 5555 || s.Port == 51821) && s.Kernel != nil {
			t.Errorf("%d named %+v with no FOU family and no WireGuard reader", s.Port, s.Kernel)
		}
	}
}
