package cluster

import (
	"net/netip"
	"strconv"
	"strings"
)

// listenPorts: when every peer that dials an interface dials it at one port
// and the interface listens on another, the listenPort is what changed (or
// every endpoint is behind one port forward). The finding is at the
// listenPort, naming each dialer, and the dialers' own port warnings are
// not given again. It is an error where the host facts show an endpoint is
// the interface's own address (no port forward can stand between them),
// or where the topology places it behind a 1:1 NAT (which keeps ports),
// else a warning.
func (c *check) listenPorts() {
	type dialled struct {
		ports   map[uint16]bool
		by      []*entry
		ownAddr bool
	}
	at := map[*iface]*dialled{}
	var order []*iface
	c.entries(func(e *entry) {
		ap, ok := e.dialsIP()
		t := e.target
		if !ok || t == nil || e.elsewhere != nil || t.wg.ListenPort == nil || t.n.bad[t.path().Field("listenPort").String()] {
			return
		}
		d := at[t]
		if d == nil {
			d = &dialled{ports: map[uint16]bool{}}
			at[t] = d
			order = append(order, t)
		}
		d.ports[ap.Port()] = true
		d.by = append(d.by, e)
		d.ownAddr = d.ownAddr || holdsAddr(t.n, ap.Addr())
	})
	for _, t := range order {
		d := at[t]
		lp := *t.wg.ListenPort
		if len(d.ports) != 1 || d.ports[uint16(lp)] {
			continue
		}
		if c.portReported == nil {
			c.portReported = map[*iface]bool{}
		}
		c.portReported[t] = true
		port := strconv.Itoa(int(d.by[0].mustPort()))
		var who []string
		var related []Place
		for _, e := range d.by {
			who = append(who, e.in.n.File)
			related = append(related, e.in.n.at(e.path().Field("endpoint").String()))
		}
		path := t.path().Field("listenPort").String()
		if d.ownAddr {
			c.errorf(t.n, path, related,
				"is %d, but every peer that dials %s dials port %s (%s), and at an address of its own host: no port forward stands between them, so no handshake arrives; listen on %s, or give every endpoint port %d",
				lp, t, port, strings.Join(who, ", "), port, lp)
			continue
		}
		if c.natted(t) {
			c.errorf(t.n, path, related,
				"is %d, but every peer that dials %s dials port %s (%s), and the topology places it behind a 1:1 NAT, which maps its addresses and keeps every port: no handshake arrives; listen on %s, or give every endpoint port %d",
				lp, t, port, strings.Join(who, ", "), port, lp)
			continue
		}
		c.warnf(t.n, path, related,
			"is %d, but every peer that dials %s dials port %s (%s): unless a port forward in front of it maps %s to %d, no handshake arrives; listen on %s, or give every endpoint port %d",
			lp, t, port, strings.Join(who, ", "), port, lp, port, lp)
	}
}

// mustPort is the port of an entry dialsIP took.
func (e *entry) mustPort() uint16 {
	ap, _ := e.dialsIP()
	return ap.Port()
}

// ownAddrPort says whether the host facts show ap's address is t's own: no
// port forward stands between a dialer and it.
func ownAddrPort(t *iface, ap netip.AddrPort) bool { return holdsAddr(t.n, ap.Addr()) }
