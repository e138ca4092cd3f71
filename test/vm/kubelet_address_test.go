package vm

import (
	"net/netip"
	"strings"
	"testing"
)

// kubeletFacts is what the kubelet looks at to choose the address it
// registers when it has no --node-ip and no cloud provider
// (pkg/kubelet/nodestatus/setters.go, NodeAddress): the node name, what it
// resolves to, the host's addresses and its default route.
type kubeletFacts struct {
	hostname string
	resolved []string          // getent -s files ahostsv4 NAME: the node name's addresses
	addrs    map[string]string // the host's IPv4 addresses (ip -4 -o addr), each to its interface
	order    []string          // the same addresses in the order ip lists them
	route    string            // ip -4 route show default: the default route's interface
}

// readKubeletFacts reads them in the guest. The kubelet is a static Go
// binary: its resolver reads /etc/hosts and asks DNS, and this network has
// no DNS server, so the files source is what it gets.
func readKubeletFacts(t testing.TB, m *Machine) kubeletFacts {
	t.Helper()
	f := kubeletFacts{hostname: strings.TrimSpace(m.MustExec("hostname")), addrs: map[string]string{}}
	hosts, _ := m.Exec("getent", "-s", "files", "ahostsv4", f.hostname)
	for _, l := range strings.Split(hosts, "\n") {
		if fields := strings.Fields(l); len(fields) > 1 && fields[1] == "STREAM" {
			f.resolved = append(f.resolved, fields[0])
		}
	}
	for _, l := range strings.Split(m.MustExec("ip", "-4", "-o", "addr", "show"), "\n") {
		// 2: enp0s3    inet 192.0.2.2/24 brd ... scope global ...
		fields := strings.Fields(l)
		if len(fields) >= 4 && fields[2] == "inet" {
			addr, _, _ := strings.Cut(fields[3], "/")
			f.addrs[addr] = fields[1]
			f.order = append(f.order, addr)
		}
	}
	route := strings.Fields(m.MustExec("ip", "-4", "route", "show", "default"))
	for i := 0; i+1 < len(route); i++ {
		if route[i] == "dev" {
			f.route = route[i+1]
			break
		}
	}
	return f
}

// kubeletDefault is the address the kubelet registers without --node-ip,
// as it chooses it, and which of its two ways gave it: the node name's
// first IPv4 address that is neither loopback, link-local nor multicast and
// is one of the host's own; else the first global address of the default
// route's interface (apimachinery's ChooseHostInterface).
func kubeletDefault(f kubeletFacts) (addr, how string) {
	for _, r := range f.resolved {
		ip, err := netip.ParseAddr(r)
		if err != nil || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsMulticast() || ip.IsUnspecified() {
			continue
		}
		if _, own := f.addrs[r]; own {
			return r, "the node name " + f.hostname + " resolves to it (/etc/hosts)"
		}
	}
	resolved := "nothing"
	if len(f.resolved) > 0 {
		resolved = strings.Join(f.resolved, ",")
	}
	for _, a := range f.order {
		ip, _ := netip.ParseAddr(a)
		if f.addrs[a] == f.route && ip.IsGlobalUnicast() {
			return a, "the default route's interface " + f.route + "; the node name " + f.hostname + " resolves to " + resolved + " in /etc/hosts, no address of the host's the kubelet takes"
		}
	}
	return "", "no default route and no address for the node name"
}

// TestKubeletDefault: the two ways, and what does not count.
func TestKubeletDefault(t *testing.T) {
	addrs := map[string]string{"127.0.0.1": "lo", "192.0.2.2": "enp0s3", "10.77.0.2": "wg0"}
	order := []string{"127.0.0.1", "192.0.2.2", "10.77.0.2"}
	for _, c := range []struct {
		name     string
		resolved []string
		route    string
		want     string
	}{
		{"Debian's 127.0.1.1 line", []string{"127.0.1.1"}, "enp0s3", "192.0.2.2"},
		{"nothing resolves", nil, "enp0s3", "192.0.2.2"},
		{"a name on the overlay", []string{"10.77.0.2"}, "enp0s3", "10.77.0.2"},
		{"a name not the host's", []string{"10.77.0.9"}, "enp0s3", "192.0.2.2"},
		{"no default route", nil, "", ""},
	} {
		got, how := kubeletDefault(kubeletFacts{hostname: "rw1", resolved: c.resolved, addrs: addrs, order: order, route: c.route})
		if got != c.want {
			t.Errorf("%s: %q (%s), want %q", c.name, got, how, c.want)
		}
	}
}
