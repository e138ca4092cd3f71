package report

import (
	"context"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/status/listen"
)

// The verdict from fake sockets on a healthy node: an unguarded cluster
// listener degrades the firewall layer by name, a host service does not,
// and a socket whose holder cannot be read is said to be unchecked rather
// than passed as a host service.
func TestListenerVerdicts(t *testing.T) {
	n := newNode(t, "wg0")
	root := provision(t, n)
	k0s := &listen.Owner{PID: 42, Comm: "etcd", Cgroups: []string{"/system.slice/k0scontroller.service"}}
	sshd := &listen.Owner{PID: 7, Comm: "sshd", Cgroups: []string{"/system.slice/sshd.service"}}
	kubeProxy := &listen.Owner{PID: 9, Comm: "kube-proxy", Cgroups: []string{"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-podkp.slice/cri-containerd-1.scope"}}
	any4 := netip.IPv4Unspecified()
	for _, c := range []struct {
		name  string
		socks fakeSockets
		line  string
	}{
		{"none", nil, "ok"},
		{"sshd", fakeSockets{{Proto: "tcp", Addr: any4, Port: 22, Owner: sshd}}, "ok"},
		{"etcd's client port moved to the underlay", fakeSockets{{Proto: "tcp", Addr: any4, Port: 22, Owner: sshd}, {Proto: "tcp", Addr: any4, Port: 12379, Owner: k0s}},
			"degraded: firewall: 12379/tcp on 0.0.0.0 (etcd (pid 42) in k0scontroller.service) answers the underlay and the guard does not cover it: bind it to the overlay or loopback, or move it back to a port the guard holds"},
		{"etcd on the overlay", fakeSockets{{Proto: "tcp", Addr: netip.MustParseAddr("10.77.0.1"), Port: 12379, Owner: k0s}}, "ok"},
		{"kube-proxy's health-check node port", fakeSockets{{Proto: "tcp", Addr: any4, Port: 31234, Owner: kubeProxy}}, "ok"},
		{"a holder unread", fakeSockets{{Proto: "tcp", Addr: any4, Port: 12379, Unread: true}}, "ok (could not check: listening sockets)"},
		// A listener passed between processes and in flight, or a kernel
		// service's, on the kubelet's port: held by no process and no
		// device status knows.
		{"no holder on the kubelet's port", fakeSockets{{Proto: "tcp", Addr: any4, Port: 10250}},
			"degraded: firewall: 10250/tcp on 0.0.0.0, the port of k0s's kubelet, is held by no process and by no WireGuard, VXLAN or FOU device: what listens there cannot be told (a socket passed between processes is held by none while it is in flight, and a kernel service's by none at all); ss -lnpe 'sport = :10250' shows its inode"},
		{"no holder on kube-router's BGP port", fakeSockets{{Proto: "udp", Addr: any4, Port: 4789}, {Proto: "tcp", Addr: any4, Port: 179}},
			"degraded: firewall: 179/tcp on 0.0.0.0, the port of k0s's kube-router (BGP), is held by no process and by no WireGuard, VXLAN or FOU device: what listens there cannot be told (a socket passed between processes is held by none while it is in flight, and a kernel service's by none at all); ss -lnpe 'sport = :179' shows its inode"},
		{"no holder on the fou port, with ipip", fakeSockets{{Proto: "udp", Addr: any4, Port: 5555}}, "ok"},
		{"no holder on a port not the cluster's", fakeSockets{{Proto: "tcp", Addr: any4, Port: 2049}}, "ok"},
		{"the kernel's VXLAN device", fakeSockets{{Proto: "udp", Addr: any4, Port: 4789, Kernel: &listen.Kernel{Kind: listen.KernelVXLAN, Device: "vxlan.calico"}}}, "ok"},
		{"the overlay's own port, no process", fakeSockets{{Proto: "udp", Addr: any4, Port: 51820}}, "ok"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o, _ := healthy(t, n, 10*time.Second)
			o.Root, o.Sockets = root, c.socks
			r := Inspect(context.Background(), o)
			if r.Verdict.Line != c.line {
				t.Errorf("verdict\n got %q\nwant %q\n%s", r.Verdict.Line, c.line, textOf(r))
			}
		})
	}
}

// A socket on a port of k0s's listeners' table is named by the table's
// component, in JSON and text; a port no listener of the table runs on
// (sshd's) is named by none.
func TestListenerNamesTheTablesComponent(t *testing.T) {
	n := newNode(t, "wg0")
	root := provision(t, n)
	kubelet := &listen.Owner{PID: 42, Comm: "kubelet", Cgroups: []string{"/system.slice/k0sworker.service"}}
	sshd := &listen.Owner{PID: 7, Comm: "sshd", Cgroups: []string{"/system.slice/sshd.service"}}
	o, _ := healthy(t, n, 10*time.Second)
	o.Root = root
	o.Sockets = fakeSockets{{Proto: "tcp", Addr: netip.IPv4Unspecified(), Port: 10250, Owner: kubelet}, {Proto: "tcp", Addr: netip.IPv4Unspecified(), Port: 22, Owner: sshd}}
	r := Inspect(context.Background(), o)
	got := map[int]string{}
	for _, s := range r.Listeners.Sockets {
		got[s.Port] = s.Component
	}
	if got[10250] != "kubelet" || got[22] != "" {
		t.Errorf("components %v, want the kubelet on 10250 and none on 22", got)
	}
	if text := textOf(r); !strings.Contains(text, "; k0s's kubelet\n") {
		t.Errorf("the text does not name the kubelet:\n%s", text)
	}
}
