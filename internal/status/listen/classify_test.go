package listen

import (
	"net/netip"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/shown/showntest"
)

func owner(comm string, cgroups ...string) *Owner {
	return &Owner{PID: 7, Comm: comm, Cgroups: cgroups}
}

func sock(proto, addr string, port int, o *Owner) Socket {
	return Socket{Proto: proto, Addr: netip.MustParseAddr(addr), Port: port, Owner: o}
}

var (
	wg0   = Kernel{Kind: KernelWireGuard, Device: "wg0"}
	vxlan = Kernel{Kind: KernelVXLAN, Device: "vxlan.calico"}
	fou   = Kernel{Kind: KernelFOU}
)

// kernelSock is a wildcard socket no process holds, which the scan found
// to be k's (nil: found to be no device's).
func kernelSock(proto string, port int, k *Kernel) Socket {
	return Socket{Proto: proto, Addr: netip.IPv4Unspecified(), Port: port, Kernel: k}
}

// tabled is node with k0s's table listing kube-router's fou port.
var tabled = func() Node {
	n := node
	n.Component = func(port int, proto string) string {
		if port == 5555 && proto == "udp" {
			return "kube-router (fou tunnel)"
		}
		return ""
	}
	return n
}()

var node = Node{
	Guard: firewall.Guard{On: true, Interfaces: []string{"lo", "wg0"},
		Ports: []firewall.Port{{Number: 10250, Proto: "tcp"}, {Number: 2380, Proto: "tcp"}, {Number: 4789, Proto: "udp"}}},
	PublicPorts: []int{6443},
	WireGuard:   []WireGuard{{Name: "wg0", Addresses: []netip.Addr{netip.MustParseAddr("10.77.0.1")}, ListenPort: 51820}},
}

// TestClassify walks each class and each way a socket does not answer the
// underlay.
func TestClassify(t *testing.T) {
	k0s := owner("kube-apiserver", "/system.slice/k0scontroller.service")
	pod := owner("kube-router", "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podabc.slice/cri-containerd-123.scope")
	podV1 := owner("calico-node", "/kubepods/burstable/podabc/0123")
	sshd := owner("sshd", "/system.slice/sshd.service")
	kubeProxy := owner("kube-proxy", "/kubepods/besteffort/podkp/0456")
	for _, c := range []struct {
		name string
		s    Socket
		want *Listener // nil: left out
		node *Node
	}{
		{"moved api port", sock("tcp", "0.0.0.0", 16443, k0s), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 16443, Process: "kube-apiserver", PID: 7, Unit: "k0scontroller.service", Class: Unguarded}, nil},
		{"kubelet guarded", sock("tcp", "::", 10250, owner("kubelet", "/system.slice/k0sworker.service")), &Listener{Proto: "tcp", Address: "::", Port: 10250, Process: "kubelet", PID: 7, Unit: "k0sworker.service", Class: Guarded}, nil},
		{"public api", sock("tcp", "192.0.2.1", 6443, k0s), &Listener{Proto: "tcp", Address: "192.0.2.1", Port: 6443, Process: "kube-apiserver", PID: 7, Unit: "k0scontroller.service", Class: Public}, nil},
		{"host-network pod", sock("tcp", "0.0.0.0", 20244, pod), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 20244, Process: "kube-router", PID: 7, Unit: "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podabc.slice", Class: Unguarded}, nil},
		{"pod, cgroupfs driver", sock("tcp", "0.0.0.0", 9099, podV1), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 9099, Process: "calico-node", PID: 7, Unit: "kubepods/burstable/podabc", Class: Unguarded}, nil},
		{"same port, other protocol", sock("udp", "0.0.0.0", 10250, k0s), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 10250, Process: "kube-apiserver", PID: 7, Unit: "k0scontroller.service", Class: Unguarded}, nil},
		{"sshd", sock("tcp", "0.0.0.0", 22, sshd), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 22, Process: "sshd", PID: 7, Unit: "sshd.service", Class: Host}, nil},
		{"wireguard port", sock("udp", "0.0.0.0", 51820, nil), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 51820, Kernel: wg0, Class: WireGuardPort}, nil},
		{"wireguard-go's port", sock("udp", "0.0.0.0", 51820, owner("wireguard-go", "/system.slice/wg-quick@wg0.service")), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 51820, Process: "wireguard-go", PID: 7, Class: WireGuardPort}, nil},
		{"kernel vxlan, guarded", kernelSock("udp", 4789, &vxlan), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 4789, Kernel: vxlan, Class: Guarded}, nil},
		{"kernel vxlan, not the guard's", kernelSock("udp", 8472, &vxlan), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 8472, Kernel: vxlan, Class: Host}, nil},
		{"kernel fou on a port of the table", kernelSock("udp", 5555, &fou), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 5555, Kernel: fou, Component: "kube-router (fou tunnel)", Class: Host}, &tabled},
		{"holder unknown on a port the guard holds", kernelSock("udp", 4789, nil), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 4789, HolderUnknown: true, Class: UnknownHolder}, nil},
		{"holder unknown: a tcp listener in flight on the kubelet's port", kernelSock("tcp", 10250, nil), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 10250, HolderUnknown: true, Class: UnknownHolder}, nil},
		{"holder unknown on a port of the table, guard off", kernelSock("udp", 5555, nil), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 5555, HolderUnknown: true, Component: "kube-router (fou tunnel)", Class: UnknownHolder}, &Node{Component: tabled.Component}},
		{"holder unknown on a port not the cluster's", kernelSock("udp", 8472, nil), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 8472, HolderUnknown: true, Class: Host}, nil},
		{"holder unknown on a port of the table, tcp there not listed", kernelSock("tcp", 5555, nil), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 5555, HolderUnknown: true, Class: Host}, &tabled},
		{"no holder, tcp on the wireguard port", kernelSock("tcp", 51820, nil), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 51820, HolderUnknown: true, Class: Host}, nil},
		{"holder unread on a guarded port", Socket{Proto: "udp", Addr: netip.IPv4Unspecified(), Port: 4789, Unread: true}, &Listener{Proto: "udp", Address: "0.0.0.0", Port: 4789, Class: Guarded, Unread: true}, nil},
		{"holder unread", Socket{Proto: "tcp", Addr: netip.IPv4Unspecified(), Port: 16443, Unread: true}, &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 16443, Class: Host, Unread: true}, nil},
		{"guard off", sock("tcp", "0.0.0.0", 16443, k0s), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 16443, Process: "kube-apiserver", PID: 7, Unit: "k0scontroller.service", Class: Open}, &Node{}},
		{"kube-proxy's health-check node port", sock("tcp", "0.0.0.0", 31234, kubeProxy), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 31234, Process: "kube-proxy", PID: 7, Unit: "kubepods/besteffort/podkp", Class: HealthCheckNodePort}, nil},
		{"kube-router's health-check node port", sock("tcp", "::", 30000, pod), &Listener{Proto: "tcp", Address: "::", Port: 30000, Process: "kube-router", PID: 7, Unit: "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podabc.slice", Class: HealthCheckNodePort}, nil},
		{"kube-proxy below the node-port range", sock("tcp", "0.0.0.0", 29999, kubeProxy), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 29999, Process: "kube-proxy", PID: 7, Unit: "kubepods/besteffort/podkp", Class: Unguarded}, nil},
		{"kube-proxy above the node-port range", sock("tcp", "0.0.0.0", 32768, kubeProxy), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 32768, Process: "kube-proxy", PID: 7, Unit: "kubepods/besteffort/podkp", Class: Unguarded}, nil},
		{"kube-proxy, udp in the node-port range", sock("udp", "0.0.0.0", 31234, kubeProxy), &Listener{Proto: "udp", Address: "0.0.0.0", Port: 31234, Process: "kube-proxy", PID: 7, Unit: "kubepods/besteffort/podkp", Class: Unguarded}, nil},
		{"another cluster process in the node-port range", sock("tcp", "0.0.0.0", 31234, k0s), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 31234, Process: "kube-apiserver", PID: 7, Unit: "k0scontroller.service", Class: Unguarded}, nil},
		{"a host's kube-proxy in the node-port range", sock("tcp", "0.0.0.0", 31234, owner("kube-proxy", "/system.slice/kube-proxy.service")), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 31234, Process: "kube-proxy", PID: 7, Unit: "kube-proxy.service", Class: Host}, nil},
		{"kube-proxy in the node-port range, guard off", sock("tcp", "0.0.0.0", 31234, kubeProxy), &Listener{Proto: "tcp", Address: "0.0.0.0", Port: 31234, Process: "kube-proxy", PID: 7, Unit: "kubepods/besteffort/podkp", Class: Open}, &Node{}},
		{"loopback", sock("tcp", "127.0.0.1", 10257, k0s), nil, nil},
		{"loopback v6", sock("tcp", "::1", 10257, k0s), nil, nil},
		{"mapped loopback", sock("tcp", "::ffff:127.0.0.1", 10257, k0s), nil, nil},
		{"overlay address", sock("tcp", "10.77.0.1", 16443, k0s), nil, nil},
		{"overlay device", Socket{Proto: "tcp", Addr: netip.IPv4Unspecified(), Port: 16443, Device: "wg0", Owner: k0s}, nil, nil},
		{"lo device", Socket{Proto: "tcp", Addr: netip.IPv4Unspecified(), Port: 16443, Device: "lo", Owner: k0s}, nil, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := node
			if c.node != nil {
				n = *c.node
			}
			got := Classify([]Socket{c.s}, n)
			switch {
			case c.want == nil && len(got) != 0:
				t.Errorf("listed %+v; it does not answer the underlay", got)
			case c.want != nil && (len(got) != 1 || got[0] != *c.want):
				t.Errorf("got %+v\nwant %+v", got, *c.want)
			}
		})
	}
}

// TestClassifySortsAndDedupes: a socket read twice (two dumps of a dual
// family) is one listener, and the order does not follow the kernel's.
func TestClassifySortsAndDedupes(t *testing.T) {
	k0s := owner("etcd", "/system.slice/k0scontroller.service")
	got := Classify([]Socket{sock("tcp", "0.0.0.0", 2380, k0s), sock("tcp", "0.0.0.0", 2379, k0s), sock("tcp", "0.0.0.0", 2380, k0s)}, node)
	ports := []int{}
	for _, l := range got {
		ports = append(ports, l.Port)
	}
	if !slices.Equal(ports, []int{2379, 2380}) {
		t.Errorf("ports %v, want [2379 2380]", ports)
	}
}

func TestHolder(t *testing.T) {
	l := Listener{Proto: "tcp", Address: "0.0.0.0", Port: 16443, Device: "eth0", Process: "kube-apiserver", PID: 42, Unit: "k0scontroller.service"}
	if got, want := l.Endpoint()+" held by "+l.Holder(), "16443/tcp on 0.0.0.0%eth0 held by kube-apiserver (pid 42) in k0scontroller.service"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if got := (Listener{Kernel: vxlan}).Holder(); got != "the kernel's VXLAN device vxlan.calico" {
		t.Errorf("a VXLAN device's: %q", got)
	}
	if got := (Listener{Kernel: fou}).Holder(); got != "the kernel's FOU port" {
		t.Errorf("a FOU port's: %q", got)
	}
	if got := (Listener{HolderUnknown: true}).Holder(); !strings.HasPrefix(got, "holder unknown") {
		t.Errorf("no holder known: %q", got)
	}
	if got := (Listener{Unread: true}).Holder(); got != "a process that could not be read" {
		t.Errorf("unread: %q", got)
	}
}

// A comm, a cgroup's unit and a link's name are the host's to choose: the
// endpoint and the holder show them quoted when they hold anything but
// printable ASCII, so none writes a line of its own or a terminal's escape
// sequence into the report or the verdict.
func TestHolderShowsOutsideText(t *testing.T) {
	bad := showntest.Hostile
	pod := owner(bad, "/kubepods.slice/kubepods-pod"+bad+".slice/cri-containerd-1.scope")
	host := owner(bad, "/system.slice/"+bad+".service")
	socks := []Socket{
		{Proto: "tcp", Addr: netip.IPv4Unspecified(), Port: 16443, Device: bad, Owner: pod},
		{Proto: "tcp", Addr: netip.IPv4Unspecified(), Port: 2222, Owner: host},
		kernelSock("udp", 4789, &Kernel{Kind: KernelVXLAN, Device: bad}),
	}
	got := Classify(socks, node)
	if len(got) != 3 {
		t.Fatalf("got %+v", got)
	}
	for _, l := range got {
		text := l.Endpoint() + " held by " + l.Holder()
		if raw := showntest.Raw(text); len(raw) > 0 || strings.Contains(text, "\n") {
			t.Errorf("%d/%s shows %v raw: %q", l.Port, l.Proto, raw, text)
		}
		if !strings.Contains(text, `"x\x00\x01`) {
			t.Errorf("%d/%s does not quote the outside text: %q", l.Port, l.Proto, text)
		}
	}
	if l := got[2]; l.Process != bad || l.Device != bad || !strings.HasPrefix(l.Unit, "kubepods.slice/kubepods-podx\x00") {
		t.Errorf("the data itself changed: %q %q %q", l.Process, l.Device, l.Unit)
	}
}
