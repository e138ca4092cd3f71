package bootstrap

import (
	"fmt"
	"net"
	"net/netip"

	"github.com/vishvananda/netlink"
)

// Netlink is the part of *netlink.Handle that gathering facts uses; a handle
// from netlink.NewHandleAt reads another network namespace.
type Netlink interface {
	LinkList() ([]netlink.Link, error)
	LinkByIndex(index int) (netlink.Link, error)
	AddrList(link netlink.Link, family int) ([]netlink.Addr, error)
	RouteGet(destination net.IP) ([]netlink.Route, error)
}

// Well-known public resolvers stand in for "the internet": RouteGet only
// looks the route up, no packet is sent.
var internetProbes = []net.IP{net.ParseIP("1.1.1.1"), net.ParseIP("2606:4700:4700::1111")}

// GatherFacts reads the live host's links that are up, their addresses and
// the route to the internet. Overlay interfaces are listed by name like any
// other link (a userspace WireGuard device is a tuntap link). A host with no
// route to the internet has a nil DefaultRoute; that is a fact, not an error.
func GatherFacts(nl Netlink) (*Facts, error) {
	links, err := nl.LinkList()
	if err != nil {
		return nil, fmt.Errorf("listing links: %w", err)
	}
	f := &Facts{Interfaces: []InterfaceFacts{}}
	for _, link := range links {
		attrs := link.Attrs()
		if attrs.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, err := nl.AddrList(link, netlink.FAMILY_ALL)
		if err != nil {
			return nil, fmt.Errorf("listing addresses of %s: %w", attrs.Name, err)
		}
		iface := InterfaceFacts{Name: attrs.Name, Addresses: []netip.Prefix{}}
		for _, a := range addrs {
			if p, ok := prefixOf(a); ok {
				iface.Addresses = append(iface.Addresses, p)
			}
		}
		f.Interfaces = append(f.Interfaces, iface)
	}
	f.DefaultRoute, err = defaultRoute(nl)
	if err != nil {
		return nil, err
	}
	return f, nil
}

func defaultRoute(nl Netlink) (*RouteFacts, error) {
	for _, dst := range internetProbes {
		routes, err := nl.RouteGet(dst)
		if err != nil {
			// ENETUNREACH: no route in this family; try the next one.
			continue
		}
		for _, r := range routes {
			src, ok := netip.AddrFromSlice(r.Src)
			if !ok {
				continue
			}
			link, err := nl.LinkByIndex(r.LinkIndex)
			if err != nil {
				return nil, fmt.Errorf("finding the default route's link %d: %w", r.LinkIndex, err)
			}
			return &RouteFacts{Interface: link.Attrs().Name, Source: src.Unmap()}, nil
		}
	}
	return nil, nil
}
