package report

import (
	"context"
	"net/netip"
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
		{"a holder unread", fakeSockets{{Proto: "tcp", Addr: any4, Port: 12379, Unread: true}}, "ok (could not check: listening sockets)"},
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
