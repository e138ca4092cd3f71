package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"slices"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/status/listen"
)

// A socket that sits in no process's descriptors is not thereby the
// kernel's: one passed over SCM_RIGHTS is held by no process while it is in
// flight, its sender having closed it and its receiver not yet taken it.
// So the kernel's own UDP sockets are named by what holds them, each
// device on its port, and what is none of them is left unnamed for the
// judge to call its holder unknown.
//
// Not named: the kernel's TCP listeners (nfsd's 2049, lockd's), whose
// ports nothing here reads; and GENEVE devices, which no CNI k0s deploys
// uses. Both read as holder unknown.

// WireGuardDevices reads a WireGuard device in the kernel, for its listen
// port; *wgctrl.Client is one.
type WireGuardDevices interface {
	Device(name string) (*wgtypes.Device, error)
}

// fouFamily is the generic netlink family of FOU ports (FOU_GENL_NAME).
const fouFamily = "fou"

// nameKernel gives each UDP socket that no process holds the kernel's
// device on its port, when there is one. Such a socket is then known not
// to be a process's, read or unread.
func (r Reader) nameKernel(socks []listen.Socket) error {
	if !slices.ContainsFunc(socks, func(s listen.Socket) bool { return s.Owner == nil && s.Proto == "udp" }) {
		return nil
	}
	ports, err := r.kernelPorts()
	if err != nil {
		return err
	}
	for i, s := range socks {
		if k, ok := ports[s.Port]; ok && s.Owner == nil && s.Proto == "udp" {
			socks[i].Kernel, socks[i].Unread = &k, false
		}
	}
	return nil
}

// kernelPorts are the UDP ports the kernel's devices listen on: each VXLAN
// device that is up on its destination port (the kernel opens its socket
// there when the device comes up), each WireGuard device that is up on its
// listen port (when a WireGuardDevices is given; a configured interface's
// port is known from the configuration anyway), and each FOU port.
func (r Reader) kernelPorts() (map[int]listen.Kernel, error) {
	links, err := retried(r.Diag.LinkList)
	if err != nil {
		return nil, fmt.Errorf("reading the links, to name the kernel's sockets: %w", err)
	}
	out := map[int]listen.Kernel{}
	for _, l := range links {
		if l.Attrs().Flags&net.FlagUp == 0 {
			continue // no socket until it is up
		}
		switch l := l.(type) {
		case *netlink.Vxlan:
			out[l.Port] = listen.Kernel{Kind: listen.KernelVXLAN, Device: l.Name}
		case *netlink.Wireguard:
			if r.WireGuard == nil {
				continue
			}
			d, err := r.WireGuard.Device(l.Name)
			switch {
			case errors.Is(err, fs.ErrNotExist):
				continue // gone since the links were read
			case err != nil:
				return nil, fmt.Errorf("reading WireGuard device %s, to name the kernel's sockets: %w", l.Name, err)
			case d.ListenPort != 0:
				out[d.ListenPort] = listen.Kernel{Kind: listen.KernelWireGuard, Device: l.Name}
			}
		}
	}
	fou, err := r.fouPorts()
	if err != nil {
		return nil, err
	}
	for _, port := range fou {
		out[port] = listen.Kernel{Kind: listen.KernelFOU}
	}
	return out, nil
}

// fouPorts are the FOU ports of the namespace, none when the kernel has
// no FOU family. The family is looked for in the list rather than asked
// for by name: asking loads the fou module, and status changes nothing.
func (r Reader) fouPorts() ([]int, error) {
	families, err := retried(r.Diag.GenlFamilyList)
	if err != nil {
		return nil, fmt.Errorf("listing the generic netlink families, to name the kernel's FOU sockets: %w", err)
	}
	if !slices.ContainsFunc(families, func(f *netlink.GenlFamily) bool { return f.Name == fouFamily }) {
		return nil, nil
	}
	var out []int
	for _, family := range []int{unix.AF_INET, unix.AF_INET6} {
		fous, err := retried(func() ([]netlink.Fou, error) { return r.Diag.FouList(family) })
		if err != nil {
			return nil, fmt.Errorf("reading the FOU ports: %w", err)
		}
		for _, f := range fous {
			out = append(out, f.Port)
		}
	}
	return out, nil
}
