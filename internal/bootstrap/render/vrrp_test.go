package render

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// twoNICs is a host whose default route leaves through eth0 (203.0.113.50)
// while the controllers' LAN is on eth1 (192.0.2.11).
func twoNICs() *hostfacts.Facts {
	return &hostfacts.Facts{
		Interfaces: []hostfacts.InterfaceFacts{
			{Name: "lo", Addresses: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/8")}},
			{Name: "eth0", Addresses: []netip.Prefix{netip.MustParsePrefix("203.0.113.50/24")}},
			{Name: "eth1", Addresses: []netip.Prefix{netip.MustParsePrefix("192.0.2.11/24")}},
		},
		DefaultRoute: &hostfacts.RouteFacts{Interface: "eth0", Source: netip.MustParseAddr("203.0.113.50")},
	}
}

// unsetInterface is haConfig with ha.interface unset.
func unsetInterface(peers ...string) *schema.Config {
	cfg := haConfig(peers...)
	cfg.HA.Interface = ""
	return cfg
}

// With ha.interface unset, keepalived runs where the route to the peers
// leaves, sends from this node's address there, and the peer list loses
// every address of this node, as `ip route get PEER` would choose.
func TestChooseVRRPFollowsTheRouteToThePeers(t *testing.T) {
	withRoute := func(f *hostfacts.Facts, to, iface, src string) *hostfacts.Facts {
		f.PeerRoutes = append(f.PeerRoutes, hostfacts.PeerRoute{To: netip.MustParseAddr(to), Interface: iface, Source: netip.MustParseAddr(src)})
		return f
	}
	secondOnEth1 := func() *hostfacts.Facts {
		f := twoNICs()
		f.Interfaces[2].Addresses = append(f.Interfaces[2].Addresses, netip.MustParsePrefix("192.0.2.21/24"))
		return f
	}
	overlay := func(peers ...string) *schema.Config {
		cfg := unsetInterface(peers...)
		cfg.WireGuard = []schema.WireGuard{{Name: "wg0", Address: schema.AddressList{"10.10.0.1/24"},
			Peers: []schema.Peer{{AllowedIPs: []string{"10.30.0.0/16"}}}}}
		return cfg
	}
	for _, tc := range []struct {
		name                 string
		cfg                  *schema.Config
		facts                *hostfacts.Facts
		iface, source, peers string
	}{
		{"the peers' LAN on the second NIC", unsetInterface("192.0.2.11", "192.0.2.12", "192.0.2.13"), twoNICs(),
			"eth1", "192.0.2.11", "192.0.2.12 192.0.2.13"},
		{"an own address of the other NIC is dropped too", unsetInterface("203.0.113.50", "192.0.2.12"), twoNICs(),
			"eth1", "192.0.2.11", "192.0.2.12"},
		{"the address whose network holds the peers", unsetInterface("192.0.2.12"), func() *hostfacts.Facts {
			f := twoNICs()
			f.Interfaces[2].Addresses = []netip.Prefix{netip.MustParsePrefix("198.51.100.7/24"), netip.MustParsePrefix("192.0.2.11/24")}
			return f
		}(), "eth1", "192.0.2.11", "192.0.2.12"},
		{"a routed peer: the host's route and its source", unsetInterface("198.51.100.12"), withRoute(secondOnEth1(), "198.51.100.12", "eth1", "192.0.2.21"),
			"eth1", "192.0.2.21", "198.51.100.12"},
		{"a routed peer, facts without a source: the interface's first address", unsetInterface("198.51.100.12"), func() *hostfacts.Facts {
			f := secondOnEth1()
			f.PeerRoutes = []hostfacts.PeerRoute{{To: netip.MustParseAddr("198.51.100.12"), Interface: "eth1"}}
			return f
		}(), "eth1", "192.0.2.11", "198.51.100.12"},
		{"no network nor route holds them: the default route", unsetInterface("198.51.100.12"), twoNICs(),
			"eth0", "203.0.113.50", "198.51.100.12"},
		{"peers on the overlay, before it is up", overlay("10.10.0.1", "10.10.0.2"), twoNICs(),
			"wg0", "10.10.0.1", "10.10.0.2"},
		{"peers behind an overlay peer's allowedIPs, without facts", overlay("10.30.0.2"), nil,
			"wg0", "10.10.0.1", "10.30.0.2"},
		{"ha.interface set: as given, own addresses dropped", func() *schema.Config {
			c := haConfig("203.0.113.50", "192.0.2.11", "192.0.2.12")
			c.HA.Interface = "eth1"
			return c
		}(), twoNICs(), "eth1", "192.0.2.11", "192.0.2.12"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ChooseVRRP(tc.cfg, tc.facts)
			if err != nil {
				t.Fatal(err)
			}
			if v.Interface != tc.iface || v.Source.String() != tc.source || strings.Join(v.Peers, " ") != tc.peers {
				t.Fatalf("chose %s from %v to %v, want %s from %s to %s", v.Interface, v.Source, v.Peers, tc.iface, tc.source, tc.peers)
			}
			got := renderedVRRP(t, tc.cfg, v)
			if got.Interface != tc.iface || got.UnicastSourceIP != tc.source || strings.Join(got.UnicastPeers, " ") != tc.peers {
				t.Errorf("rendered %+v, want interface %s, source %s, peers %s", got, tc.iface, tc.source, tc.peers)
			}
		})
	}
}

// A peer no interface reaches, or peers behind two interfaces, are refused
// before anything is written, naming the peer by its field and quoting no
// address of the document.
func TestChooseVRRPRefusesPeersItCannotReach(t *testing.T) {
	noDefault := func() *hostfacts.Facts { f := twoNICs(); f.DefaultRoute = nil; return f }
	for _, tc := range []struct {
		name  string
		cfg   *schema.Config
		facts *hostfacts.Facts
		want  string
	}{
		{"no network, route or default route", unsetInterface("192.0.2.12", "198.51.100.12"), noDefault(),
			"ha.unicastPeers[1]: no interface of this host reaches it (no interface's network holds it, the host reports no route to it, and there is no IPv4 default route)"},
		{"an IPv6 peer, an IPv4 default route only", unsetInterface("2001:db8::12"), twoNICs(),
			"ha.unicastPeers[0]: no interface of this host reaches it (no interface's network holds it, the host reports no route to it, and there is no IPv6 default route)"},
		{"peers behind two interfaces", unsetInterface("192.0.2.11", "192.0.2.12", "203.0.113.51"), twoNICs(),
			"ha.unicastPeers[2]: is reached through eth0, and ha.unicastPeers[1] through eth1; keepalived sends every advert through one interface"},
		{"no facts, no overlay network", unsetInterface("192.0.2.12"), nil,
			"ha.interface: unset, and no wireguard interface's network holds ha.unicastPeers[0], and the host's addresses and routes are not known here"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := checkCPLB(tc.cfg, secret.NewValue("vrrp"), tc.facts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			for _, p := range tc.cfg.HA.UnicastPeers {
				if strings.Contains(err.Error(), p) {
					t.Errorf("the error quotes a peer's address: %v", err)
				}
			}
		})
	}
}

// Multicast VRRP with ha.interface unset runs on the interface whose
// network holds the virtual IP, not on the default route's, which k0s
// would take; without such an interface, the default route's, as k0s.
func TestChooseVRRPMulticastFollowsTheVirtualIP(t *testing.T) {
	vipHeld := twoNICs()
	vipHeld.Interfaces = append(vipHeld.Interfaces,
		hostfacts.InterfaceFacts{Name: "dummyvip0", Addresses: []netip.Prefix{netip.MustParsePrefix("192.0.2.100/32")}},
		hostfacts.InterfaceFacts{Name: "wg0", Addresses: []netip.Prefix{netip.MustParsePrefix("192.0.2.97/28")}})
	vipHeld.Interfaces[2].Addresses = append([]netip.Prefix{netip.MustParsePrefix("192.0.2.100/24")}, vipHeld.Interfaces[2].Addresses...)
	elsewhere := unsetInterface()
	elsewhere.HA.VirtualIP = "198.51.100.100/24"
	withOverlay := unsetInterface()
	withOverlay.WireGuard = []schema.WireGuard{{Name: "wg0", Address: schema.AddressList{"192.0.2.97/28"}}}
	for _, tc := range []struct {
		name  string
		cfg   *schema.Config
		facts *hostfacts.Facts
		want  string
	}{
		{"the VIP's network on the second NIC", unsetInterface(), twoNICs(), "eth1"},
		{"the VIP held already, beside k0s's dummy and an overlay", withOverlay, vipHeld, "eth1"},
		{"no interface holds the VIP's network", elsewhere, twoNICs(), "eth0"},
		{"no facts: k0s decides at boot", unsetInterface(), nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := ChooseVRRP(tc.cfg, tc.facts)
			if err != nil || v.Interface != tc.want || v.Source.IsValid() || v.Peers != nil {
				t.Fatalf("chose %+v, %v; want %q and no unicast", v, err, tc.want)
			}
			if got := renderedVRRP(t, tc.cfg, v); got.Interface != tc.want {
				t.Errorf("rendered interface %q, want %q", got.Interface, tc.want)
			}
		})
	}
}

// An interface chosen from the host's facts, or found behind a MAC, whose
// name keepalived would read otherwise where k0s writes it ("e#1" as "e")
// is refused as ha.interface's rule refuses a typed one.
func TestChooseVRRPRefusesANameKeepalivedMisreads(t *testing.T) {
	hashed := func() *hostfacts.Facts { f := twoNICs(); f.Interfaces[2].Name = "e#1"; return f }
	byMAC := haConfig()
	byMAC.HA.Interface = "52:54:00:ab:cd:ef"
	macFacts := hashed()
	macFacts.Interfaces[2].MAC = "52:54:00:ab:cd:ef"
	for _, tc := range []struct {
		name  string
		cfg   *schema.Config
		facts *hostfacts.Facts
	}{
		{"unicast peers behind it", unsetInterface("192.0.2.12"), hashed()},
		{"the virtual IP's network on it", unsetInterface(), hashed()},
		{"behind a MAC", byMAC, macFacts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ChooseVRRP(tc.cfg, tc.facts)
			if err == nil || !strings.Contains(err.Error(), `ha.interface: keepalived would run on "e#1", whose name holds one of`) {
				t.Fatalf("got %v; want the name refused", err)
			}
		})
	}
}
