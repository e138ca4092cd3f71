package lab

import (
	"bufio"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vishvananda/netlink"

	"github.com/corium/corium-agent/internal/testutil/netns"
)

// pairTimeout is how long one pair's connection may take: past a first
// handshake lost while a peer came up, WireGuard retries after 5 s.
const pairTimeout = 8 * time.Second

// dialFrom connects from the namespace to ap and returns the first line the
// other end sends (the stand-ins' node name; "" from a real process).
func dialFrom(ns *netns.Netns, ap netip.AddrPort, timeout time.Duration) (string, error) {
	var c net.Conn
	if err := ns.Do(func() (err error) {
		c, err = net.DialTimeout("tcp", ap.String(), timeout)
		return err
	}); err != nil {
		return "", err
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(timeout))
	line, _ := bufio.NewReader(c).ReadString('\n')
	return strings.TrimSpace(line), nil
}

// pair is one connection the cluster makes between two nodes.
type pair struct {
	from, to *LabNode
	svc      Service
}

func (l *Lab) pairs() []pair {
	var out []pair
	for _, to := range l.Nodes {
		for _, svc := range Services {
			if svc.From == nil || !svc.On(to.Node) {
				continue
			}
			for _, from := range l.Nodes {
				if from != to && svc.From(from.Node, to.Node) {
					out = append(out, pair{from, to, svc})
				}
			}
		}
	}
	return out
}

// checkPairs connects every pair that must talk, all at once: from the
// node that connects, to the other's address as the agent chose it (where
// k0s would find it), on the service's port. The connection must reach
// the right node, and the route to it must leave by the wireguard
// interface.
func (l *Lab) checkPairs(t testing.TB, v *Verdict) {
	t.Helper()
	handles := map[*LabNode]*netlink.Handle{}
	for _, ln := range l.Nodes {
		handles[ln] = ln.NS.Netlink(t)
	}
	var wg sync.WaitGroup
	for _, p := range l.pairs() {
		target := p.to.NodeAddress(t)
		if p.svc.Bind == PeerAddress {
			target = p.to.etcdPeerAddress(t)
		}
		ap := netip.AddrPortFrom(target, uint16(p.svc.Port))
		via := routeDevice(handles[p.from], target)
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.count()
			what := p.from.Name + " -> " + p.to.Name + " " + p.svc.Name + " (" + ap.String() + ")"
			if via != "wg0" {
				v.fail("%s: leaves by %s, not the wireguard interface wg0", what, via)
			}
			got, err := dialFrom(p.from.NS, ap, pairTimeout)
			switch {
			case err != nil:
				v.fail("%s: does not connect: %v", what, err)
			case l.Replace[p.svc.Name] == nil && got != p.to.Name:
				v.fail("%s: answered by %q, not %s", what, got, p.to.Name)
			}
		}()
	}
	wg.Wait()
}

// routeDevice is the interface by which from's kernel sends to addr.
func routeDevice(h *netlink.Handle, addr netip.Addr) string {
	routes, err := h.RouteGet(addr.AsSlice())
	if err != nil || len(routes) == 0 {
		return "no route"
	}
	link, err := h.LinkByIndex(routes[0].LinkIndex)
	if err != nil {
		return "link " + strconv.Itoa(routes[0].LinkIndex)
	}
	return link.Attrs().Name
}

// checkHandshakes holds each node's wg0 to its document: every peer the
// document lists has shaken hands (the pairs' traffic has been through).
func (l *Lab) checkHandshakes(t testing.TB, v *Verdict) {
	t.Helper()
	names := map[string]string{}
	for _, ln := range l.Nodes {
		names[ln.pubKey] = ln.Name
	}
	for _, ln := range l.Nodes {
		out, err := ln.Exec("wg", "show", "wg0", "latest-handshakes")
		if err != nil {
			v.fail("%s: wg show wg0: %v: %s", ln.Name, err, out)
			continue
		}
		shaken := map[string]bool{}
		for _, line := range strings.Split(out, "\n") {
			if f := strings.Fields(line); len(f) == 2 && f[1] != "0" {
				shaken[f[0]] = true
			}
		}
		for _, p := range ln.Doc.Wireguard[0].Peers {
			if l.S.outside[p.PublicKey] {
				continue // a peer outside the set, which nothing uses
			}
			v.count()
			if !shaken[p.PublicKey] {
				v.fail("%s: no handshake with its peer %s", ln.Name, names[p.PublicKey])
			}
		}
	}
}
