package scan

import (
	"context"
	"net"
	"net/netip"
	"os"
	"slices"
	"strconv"
	"syscall"
	"testing"

	"github.com/corium/corium-agent/internal/status/listen"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestListeningInNamespace opens sockets inside a fresh namespace and reads
// them back over sock_diag from outside it: a TCP listener and a UDP socket
// on the wildcard, one on loopback, one bound to a device, a connected one
// left out, each held by this process; a VXLAN device's socket, which the
// kernel holds and no process does, named by its device; and a listener
// passed over SCM_RIGHTS and kept in flight, which no process and no
// device holds, left unnamed.
func TestListeningInNamespace(t *testing.T) {
	host.RequireRoot(t, "ip")
	ns := netns.New(t, "scn")
	netns.Veth(t, ns, "ul0", "192.0.2.1/24", netns.New(t, "scp"), "ul0", "192.0.2.2/24")

	var closers []func() error
	t.Cleanup(func() {
		for _, c := range closers {
			_ = c()
		}
	})
	listenOn := func(network, addr string, device string) int {
		t.Helper()
		var port int
		err := ns.Do(func() error {
			lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
				if device == "" {
					return nil
				}
				var serr error
				err := c.Control(func(fd uintptr) { serr = syscall.BindToDevice(int(fd), device) })
				if err != nil {
					return err
				}
				return serr
			}}
			if network == "udp4" {
				pc, err := lc.ListenPacket(context.Background(), network, addr)
				if err != nil {
					return err
				}
				closers = append(closers, pc.Close)
				port = pc.LocalAddr().(*net.UDPAddr).Port
				return nil
			}
			l, err := lc.Listen(context.Background(), network, addr)
			if err != nil {
				return err
			}
			closers = append(closers, l.Close)
			port = l.Addr().(*net.TCPAddr).Port
			return nil
		})
		if err != nil {
			t.Fatalf("listening on %s %s in %s: %v", network, addr, ns.Name, err)
		}
		return port
	}
	tcpAny := listenOn("tcp4", "0.0.0.0:0", "")
	udpAny := listenOn("udp4", "0.0.0.0:0", "")
	tcp6 := listenOn("tcp6", "[::]:0", "")
	tcpLo := listenOn("tcp", "127.0.0.1:0", "")
	tcpDev := listenOn("tcp4", "0.0.0.0:0", "ul0")
	// A connection to the wildcard listener: its two ends are established,
	// not listening, and must not be read as listeners.
	var conn net.Conn
	if err := ns.Do(func() (err error) {
		conn, err = net.Dial("tcp", "192.0.2.1:"+strconv.Itoa(tcpAny))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	closers = append(closers, conn.Close)
	connPort := conn.LocalAddr().(*net.TCPAddr).Port

	// The kernel's own socket, as a WireGuard device in the kernel or a
	// CNI's VXLAN device holds one: it has an inode and sits in no
	// process's descriptors.
	const vxlanPort = 4789
	ns.Run(t, "ip", "link", "add", "vx0", "type", "vxlan", "id", "42", "dstport", strconv.Itoa(vxlanPort), "local", "192.0.2.1")
	ns.Run(t, "ip", "link", "set", "vx0", "up")
	inFlight := listenInFlight(t, ns)

	h, err := OpenAt(ns.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	socks, err := Reader{Diag: h, Proc: "/proc"}.Listening()
	if err != nil {
		t.Fatal(err)
	}
	find := func(proto string, port int) *listen.Socket {
		for i := range socks {
			if socks[i].Proto == proto && socks[i].Port == port {
				return &socks[i]
			}
		}
		return nil
	}
	me, _ := os.ReadFile("/proc/self/comm")
	for _, c := range []struct {
		proto, addr, device string
		port                int
	}{
		{"tcp", "0.0.0.0", "", tcpAny},
		{"udp", "0.0.0.0", "", udpAny},
		{"tcp", "::", "", tcp6},
		{"tcp", "127.0.0.1", "", tcpLo},
		{"tcp", "0.0.0.0", "ul0", tcpDev},
	} {
		s := find(c.proto, c.port)
		switch {
		case s == nil:
			t.Errorf("%s %d not read; read %+v", c.proto, c.port, socks)
		case s.Addr != netip.MustParseAddr(c.addr) || s.Device != c.device:
			t.Errorf("%s %d read as %s device %q, want %s device %q", c.proto, c.port, s.Addr, s.Device, c.addr, c.device)
		case s.Owner == nil || s.Owner.PID != os.Getpid() || s.Owner.Comm+"\n" != string(me) || len(s.Owner.Cgroups) == 0:
			t.Errorf("%s %d held by %+v, want this process (pid %d, %q) with its cgroups", c.proto, c.port, s.Owner, os.Getpid(), me)
		}
	}
	if s := find("tcp", connPort); s != nil {
		t.Errorf("the connected end %d read as listening: %+v", connPort, s)
	}
	switch k := find("udp", vxlanPort); {
	case k == nil:
		t.Errorf("the VXLAN device's socket %d not read; read %+v", vxlanPort, socks)
	case k.Owner != nil || k.Unread:
		// Unread here would make status say it "could not check" on
		// every node with the kernel's WireGuard, as root.
		t.Errorf("the VXLAN device's socket read as held by %+v, unread %t; want the kernel's: no holder, read", k.Owner, k.Unread)
	case k.Kernel == nil || *k.Kernel != (listen.Kernel{Kind: listen.KernelVXLAN, Device: "vx0"}):
		t.Errorf("the VXLAN device's socket named %+v, want vx0's", k.Kernel)
	}
	switch s := find("tcp", inFlight); {
	case s == nil:
		t.Errorf("the listener in flight %d not read; read %+v", inFlight, socks)
	case s.Owner != nil || s.Unread || s.Kernel != nil:
		t.Errorf("the listener in flight read as held by %+v, unread %t, kernel %+v; want no holder, read, no device's", s.Owner, s.Unread, s.Kernel)
	}
	if len(socks) != 7 {
		t.Errorf("read %d sockets, want the 7 opened in %s: %+v", len(socks), ns.Name, socks)
	}
}

// listenInFlight opens a TCP listener in ns, sends it over a socket pair
// (SCM_RIGHTS) and closes it: until the message is read, which it never
// is, the listener is in no process's descriptors, though it listens. It
// returns the listener's port.
func listenInFlight(t *testing.T, ns *netns.Netns) int {
	t.Helper()
	var fd int
	if err := ns.Do(func() (err error) {
		fd, err = syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{}); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Listen(fd, 1); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		t.Fatal(err)
	}
	pair, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(pair[0]); _ = syscall.Close(pair[1]) })
	if err := syscall.Sendmsg(pair[0], []byte{0}, syscall.UnixRights(fd), nil, 0); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Close(fd); err != nil {
		t.Fatal(err)
	}
	return sa.(*syscall.SockaddrInet4).Port
}

func TestParseCgroups(t *testing.T) {
	v1 := "12:pids:/system.slice/k0sworker.service\n1:name=systemd:/system.slice/k0sworker.service\n0::/\n"
	if got := parseCgroups(v1); !slices.Equal(got, []string{"/system.slice/k0sworker.service"}) {
		t.Errorf("v1: %q", got)
	}
	v2 := "0::/kubepods.slice/kubepods-podabc.slice/cri-containerd-1.scope\n"
	if got := parseCgroups(v2); !slices.Equal(got, []string{"/kubepods.slice/kubepods-podabc.slice/cri-containerd-1.scope"}) {
		t.Errorf("v2: %q", got)
	}
}
