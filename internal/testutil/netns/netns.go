package netns

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// Netns is a network namespace made for one test and deleted after it.
type Netns struct {
	Name string
}

// New creates a namespace with loopback up; it is deleted (with its
// links) when the test ends, pass or fail.
func New(t testing.TB, prefix string) *Netns {
	t.Helper()
	n := &Netns{Name: prefix + "-" + fixture.RandHex(6)}
	host.Run(t, "ip", "netns", "add", n.Name)
	t.Cleanup(func() { _ = exec.Command("ip", "netns", "del", n.Name).Run() })
	n.Run(t, "ip", "link", "set", "lo", "up")
	return n
}

// Path is the namespace's file, for what takes a namespace by path
// (corium-agent firewall --netns, systemd-nspawn --network-namespace-path).
func (n *Netns) Path() string { return "/run/netns/" + n.Name }

// Run runs a command inside the namespace and fails the test on error.
func (n *Netns) Run(t testing.TB, args ...string) string {
	t.Helper()
	return host.Run(t, append([]string{"ip", "netns", "exec", n.Name}, args...)...)
}

// Try runs a command inside the namespace and returns its output and error.
func (n *Netns) Try(args ...string) (string, error) {
	out, err := exec.Command("ip", append([]string{"netns", "exec", n.Name}, args...)...).CombinedOutput()
	return string(out), err
}

// Veth joins namespaces a and b with a veth pair named nameA (in a) and nameB
// (in b), assigns the given addresses (CIDR, "" for none) and sets both up.
func Veth(t testing.TB, a *Netns, nameA, addrA string, b *Netns, nameB, addrB string) {
	t.Helper()
	tmpA, tmpB := "cv"+fixture.RandHex(4), "cv"+fixture.RandHex(4)
	host.Run(t, "ip", "link", "add", tmpA, "type", "veth", "peer", "name", tmpB)
	host.Run(t, "ip", "link", "set", tmpA, "netns", a.Name)
	host.Run(t, "ip", "link", "set", tmpB, "netns", b.Name)
	a.Run(t, "ip", "link", "set", tmpA, "name", nameA)
	b.Run(t, "ip", "link", "set", tmpB, "name", nameB)
	for _, side := range []struct {
		ns         *Netns
		name, addr string
	}{{a, nameA, addrA}, {b, nameB, addrB}} {
		for _, addr := range strings.Fields(side.addr) {
			args := []string{"ip", "addr", "add", addr, "dev", side.name}
			if strings.Contains(addr, ":") {
				args = append(args, "nodad") // no 2 s wait for duplicate address detection
			}
			side.ns.Run(t, args...)
		}
		side.ns.Run(t, "ip", "link", "set", side.name, "up")
	}
}
