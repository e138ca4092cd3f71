package report

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/guardfile"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/status/listen"
)

// Sockets reads the sockets open for new peers in the node's network
// namespace; scan.Reader is the live one.
type Sockets interface {
	Listening() ([]listen.Socket, error)
}

// Listeners is what answers the underlay on the node, each socket judged
// against the rendered guard: the check of the guard by what really
// listens, where the guard itself is derived from the configuration.
type Listeners struct {
	// Sockets are the sockets that answer the underlay (loopback's and
	// the overlay's are left out), by port.
	Sockets []listen.Listener `json:"sockets"`
	// NotCompared says why the sockets were not judged, when the guard
	// file cannot be read: the firewall layer reports that file's
	// problem, and judging against no guard would call every cluster
	// port unguarded whatever the kernel holds. "" when they were.
	NotCompared string `json:"notCompared,omitempty"`
}

// listeners reads the sockets and judges them against the guard file. The
// guard file is read again here rather than shared with the firewall
// layer: that layer reports what is wrong with it, this one needs only its
// ports.
func (in *inspection) listeners() {
	if in.o.Sockets == nil {
		in.unknown("listening sockets", why(in.o.SocketsWhy))
		return
	}
	n, err := in.listenNode()
	if err != nil {
		in.r.Listeners = &Listeners{Sockets: []listen.Listener{}, NotCompared: err.Error()}
		return
	}
	socks, err := in.o.Sockets.Listening()
	if err != nil {
		in.unknown("listening sockets", err.Error())
		return
	}
	in.r.Listeners = &Listeners{Sockets: listen.Classify(socks, n)}
	if in.r.Listeners.Sockets == nil {
		in.r.Listeners.Sockets = []listen.Listener{}
	}
	unread := 0
	for _, l := range in.r.Listeners.Sockets {
		if l.Unread {
			unread++
		}
	}
	if unread > 0 {
		// A cluster listener whose process cannot be read would pass as a
		// host service: say so rather than vouch for it.
		in.unknown("listening sockets", fmt.Sprintf("the processes holding %d of them could not be read, so whether they are the cluster's is not known; run status as root", unread))
	}
}

// listenNode is what the sockets are judged against: the rendered guard
// (none with clusterPorts: open), firewall.publicPorts, and each overlay
// interface with its addresses, configured and live, and its listen port.
func (in *inspection) listenNode() (listen.Node, error) {
	n := listen.Node{PublicPorts: in.cfg.Firewall.PublicPorts}
	n.Component = func(port int, proto string) string { return k0s.ListenerOf(in.eff, port, proto) }
	g, err := guardfile.Load(in.o.Root)
	switch {
	case err == nil:
		n.Guard = g
	case in.cfg.Firewall.ClusterPorts != schema.ClusterPortsOverlay && errors.Is(err, firewall.ErrNotRendered):
		// No table: the guard is off by configuration.
	default:
		return n, fmt.Errorf("the rendered guard cannot be read (see firewall): %w", err)
	}
	for i, wg := range in.cfg.WireGuard {
		w := listen.WireGuard{Name: wg.Name}
		for _, a := range wg.Address {
			if p, err := netip.ParsePrefix(a); err == nil {
				w.Addresses = append(w.Addresses, p.Addr())
			}
		}
		if in.facts != nil {
			for _, iface := range in.facts.Interfaces {
				if iface.Name == wg.Name {
					for _, p := range iface.Addresses {
						w.Addresses = append(w.Addresses, p.Addr())
					}
				}
			}
		}
		switch {
		case wg.ListenPort != nil:
			w.ListenPort = *wg.ListenPort
		case i < len(in.r.Interfaces):
			w.ListenPort = in.r.Interfaces[i].ListenPort // the device's own, chosen at random
		}
		n.WireGuard = append(n.WireGuard, w)
	}
	return n, nil
}

// listenerProblems are the cluster's listeners that answer the underlay
// where the guard promises they do not (the guard does not cover them),
// and the sockets on the cluster's ports that nothing status knows holds.
func listenerProblems(r *Report) []string {
	if r.Listeners == nil {
		return nil
	}
	var out []string
	for _, l := range r.Listeners.Sockets {
		switch l.Class {
		case listen.Unguarded:
			out = append(out, fmt.Sprintf("%s (%s) answers the underlay and the guard does not cover it: bind it to the overlay or loopback, or move it back to a port the guard holds", l.Endpoint(), l.Holder()))
		case listen.UnknownHolder:
			out = append(out, fmt.Sprintf("%s, %s, is held by no process and by no WireGuard, VXLAN or FOU device: what listens there cannot be told (a socket passed between processes is held by none while it is in flight, and a kernel service's by none at all); ss -lnpe 'sport = :%d' shows its inode", l.Endpoint(), clusterPortOf(l), l.Port))
		}
	}
	return out
}

// clusterPortOf says why l's port is the cluster's: k0s's table lists a
// listener there, or the guard holds it.
func clusterPortOf(l listen.Listener) string {
	if l.Component != "" {
		return "the port of k0s's " + l.Component
	}
	return "a port the guard holds"
}

// classText is how a listener's class reads in the text form.
var classText = map[listen.Class]string{
	listen.Unguarded:           "UNGUARDED, the cluster's",
	listen.UnknownHolder:       "UNKNOWN, on a cluster port",
	listen.Guarded:             "guarded",
	listen.Public:              "public (firewall.publicPorts)",
	listen.Open:                "open (clusterPorts: open)",
	listen.WireGuardPort:       "the overlay's listen port",
	listen.Host:                "a host service, left alone by the guard (information)",
	listen.HealthCheckNodePort: "a Service's health-check node port, left to Kubernetes by the guard (information)",
}

// textListeners writes the listeners' lines through line, Text's.
func textListeners(line func(format string, args ...any), l *Listeners) {
	if l == nil {
		return
	}
	if l.NotCompared != "" {
		line("%-14snot compared with the guard: %s", "listening:", l.NotCompared)
		return
	}
	count := map[listen.Class]int{}
	for _, s := range l.Sockets {
		count[s.Class]++
	}
	unknown := ""
	if n := count[listen.UnknownHolder]; n > 0 {
		unknown = fmt.Sprintf(", holder unknown %d", n)
	}
	line("%-14s%d answer the underlay (unguarded %d%s, guarded %d, host services %d)", "listening:", len(l.Sockets), count[listen.Unguarded], unknown, count[listen.Guarded], count[listen.Host])
	for _, s := range l.Sockets {
		component := ""
		if s.Component != "" {
			component = "; k0s's " + s.Component
		}
		line("  %s: %s: %s%s", s.Endpoint(), classText[s.Class], s.Holder(), component)
	}
}
