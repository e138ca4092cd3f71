package scan

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/status/listen"
)

// Diag is the part of a netlink handle a Reader uses; *netlink.Handle (from
// Open or OpenAt) is one.
type Diag interface {
	SocketDiagTCP(family uint8) ([]*netlink.Socket, error)
	SocketDiagUDP(family uint8) ([]*netlink.Socket, error)
	LinkByIndex(index int) (netlink.Link, error)
	// LinkList, GenlFamilyList and FouList name the kernel's sockets
	// (kernel.go).
	LinkList() ([]netlink.Link, error)
	GenlFamilyList() ([]*netlink.GenlFamily, error)
	FouList(family int) ([]netlink.Fou, error)
}

// Reader reads the sockets of the namespace its Diag was opened in, and
// their holders from Proc (the host's /proc, which sees every process
// whatever its namespace).
type Reader struct {
	Diag Diag
	Proc string
	// WireGuard reads the listen port of a WireGuard device in the kernel;
	// nil leaves such a device's socket unnamed here (the judge names a
	// configured interface's by its port).
	WireGuard WireGuardDevices
}

// The socket states the kernel reports (include/net/tcp_states.h): a
// listening TCP socket, and an unconnected UDP one, which is TCP_CLOSE.
const (
	tcpListen = 10
	udpClose  = 7
)

// dumpTries bounds the retries of a dump the kernel interrupted (the
// socket table changed while it was read).
const dumpTries = 3

// Listening reads every socket open for new peers, with its holder.
func (r Reader) Listening() ([]listen.Socket, error) {
	var raw []rawSocket
	for _, q := range []struct {
		proto string
		state uint8
		dump  func(uint8) ([]*netlink.Socket, error)
	}{{"tcp", tcpListen, r.Diag.SocketDiagTCP}, {"udp", udpClose, r.Diag.SocketDiagUDP}} {
		for _, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
			socks, err := retried(func() ([]*netlink.Socket, error) { return q.dump(family) })
			if err != nil {
				return nil, fmt.Errorf("reading the %s sockets (sock_diag): %w", q.proto, err)
			}
			for _, s := range socks {
				if s.State != q.state || s.ID.DestinationPort != 0 {
					continue // connected: it answers one peer, not new ones
				}
				raw = append(raw, rawSocket{proto: q.proto, s: s})
			}
		}
	}
	held, err := holdersOf(r.Proc)
	if err != nil {
		return nil, err
	}
	out := make([]listen.Socket, 0, len(raw))
	for _, rs := range raw {
		out = append(out, r.socket(rs, held))
	}
	if err := r.nameKernel(out); err != nil {
		return nil, err
	}
	return out, nil
}

type rawSocket struct {
	proto string
	s     *netlink.Socket
}

// retried is a dump, taken again while the kernel interrupts it.
func retried[T any](dump func() ([]T, error)) ([]T, error) {
	var err error
	for range dumpTries {
		var got []T
		got, err = dump()
		if !errors.Is(err, netlink.ErrDumpInterrupted) {
			return got, err
		}
	}
	return nil, err
}

func (r Reader) socket(rs rawSocket, h holders) listen.Socket {
	s := rs.s
	addr, _ := netip.AddrFromSlice(s.ID.Source)
	out := listen.Socket{Proto: rs.proto, Addr: addr.Unmap(), Port: int(s.ID.SourcePort)}
	if s.ID.Interface != 0 {
		out.Device = fmt.Sprintf("if%d", s.ID.Interface)
		if link, err := r.Diag.LinkByIndex(int(s.ID.Interface)); err == nil {
			out.Device = link.Attrs().Name
		}
	}
	out.Owner = h.owners[uint64(s.INode)]
	// No holder found: a kernel device's, or one in flight between
	// processes, when every process was read (kernel.go tells which it
	// can); possibly an unread process's when some could not be.
	out.Unread = out.Owner == nil && h.unread > 0
	return out
}
