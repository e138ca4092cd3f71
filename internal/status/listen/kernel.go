package listen

import "github.com/corium/corium-agent/internal/shown"

// The kinds of the kernel's devices that hold a UDP socket of their own,
// in no process's descriptors.
const (
	// KernelWireGuard: a WireGuard device in the kernel, on its listen
	// port.
	KernelWireGuard = "wireguard"
	// KernelVXLAN: a VXLAN device, on its destination port, which it
	// listens on.
	KernelVXLAN = "vxlan"
	// KernelFOU: a FOU (foo-over-UDP) port, as kube-router's fou
	// encapsulation adds; it has no device.
	KernelFOU = "fou"
)

// Kernel names the kernel's device that holds a socket.
type Kernel struct {
	// Kind is KernelWireGuard, KernelVXLAN or KernelFOU.
	Kind string `json:"kind"`
	// Device is the link, "" for a FOU port.
	Device string `json:"device,omitempty"`
}

// kernelWord is how the text names each kind.
var kernelWord = map[string]string{KernelWireGuard: "WireGuard", KernelVXLAN: "VXLAN", KernelFOU: "FOU"}

// String is "the kernel's VXLAN device vxlan.calico", "the kernel's FOU
// port"; "" for none.
func (k Kernel) String() string {
	if k.Kind == "" {
		return ""
	}
	word := kernelWord[k.Kind]
	if word == "" {
		word = shown.Text(k.Kind)
	}
	if k.Device == "" {
		return "the kernel's " + word + " port"
	}
	return "the kernel's " + word + " device " + shown.Text(k.Device)
}

// kernelOf is the kernel's device that holds s: the one the scan found, or
// the configured WireGuard interface whose listen port s is on, for a UDP
// socket no process holds.
func kernelOf(s Socket, n Node) Kernel {
	switch {
	case s.Owner != nil:
		return Kernel{}
	case s.Kernel != nil:
		return *s.Kernel
	case s.Proto != "udp":
		return Kernel{}
	}
	for _, w := range n.WireGuard {
		if w.ListenPort == s.Port {
			return Kernel{Kind: KernelWireGuard, Device: w.Name}
		}
	}
	return Kernel{}
}
