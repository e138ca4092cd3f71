package nft

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// listenerLabs are the configurations the walk renders a guard for: between
// them every followed row of k0s's listeners' table runs, once on its
// default port and, where a setting moves it, once moved.
var listenerLabs = []struct {
	name   string
	change func(*schema.Config)
	patch  string
}{
	{"kube-router, etcd, node-local load balancing, fou", func(*schema.Config) {},
		`{spec: {network: {nodeLocalLoadBalancing: {enabled: true}, kuberouter: {extraArgs: {overlay-encap: fou}}}}}`},
	{"calico, kine, ha", func(cfg *schema.Config) {
		on := true
		cfg.Network.CNI, cfg.Storage.Type = schema.CNICalico, schema.StorageKine
		cfg.HA = schema.HA{Enabled: &on, VirtualIP: "192.0.2.100/24"}
	}, ``},
	{"every port a setting moves, moved", func(cfg *schema.Config) {
		on := true
		cfg.HA = schema.HA{Enabled: &on, VirtualIP: "192.0.2.100/24"}
	}, `{spec: {api: {port: 16443, k0sApiPort: 19443}, konnectivity: {agentPort: 18132}, network: {
		controlPlaneLoadBalancing: {keepalived: {userSpaceProxyBindPort: 7445}},
		kuberouter: {metricsPort: 18080, extraArgs: {bgp-port: "1179", overlay-encap: fou}, rawArgs: [--health-port=21244, --overlay-encap-port, "6555"]},
		kubeProxy: {metricsBindAddress: "0.0.0.0:20249", healthzBindAddress: "[::]:20256"}}}}`},
}

// heldPort is a followed row of the table and the port it runs on in a
// lab's configuration.
type heldPort struct {
	row  k0s.Listener
	port int
}

func (h heldPort) String() string {
	return fmt.Sprintf("%s on %d/%s", h.row.Component, h.port, h.row.Proto)
}

// TestGuardHoldsEveryFollowedListener walks every followed row of k0s's
// listeners' table: it renders the guard of a configuration that runs the
// row, loads it into a fresh namespace, listens where the component would
// (every address), and proves with packets that the underlay is dropped
// and the overlay and loopback answered. As a negative control, the same
// walk over a guard without one row's port must find that row open.
func TestGuardHoldsEveryFollowedListener(t *testing.T) {
	host.RequireRoot(t, "ip", "nft", "sysctl")
	walked := map[string]bool{}
	var mu sync.Mutex
	t.Run("labs", func(t *testing.T) {
		for _, lab := range listenerLabs {
			t.Run(lab.name, func(t *testing.T) {
				t.Parallel()
				cfg := overlayConfig()
				cfg.WireGuard, cfg.Firewall.PublicPorts = cfg.WireGuard[:1], nil
				lab.change(cfg)
				if err := yaml.Unmarshal([]byte(lab.patch), &cfg.K0s.Patch); err != nil {
					t.Fatal(err)
				}
				eff := schema.Effective(cfg)
				g, err := firewall.Render(cfg, eff)
				if err != nil {
					t.Fatal(err)
				}
				var held []heldPort
				for _, row := range k0s.Listeners() {
					if port := row.PortIn(eff); port > 0 {
						held = append(held, heldPort{row, port})
						mu.Lock()
						walked[row.Component] = true
						mu.Unlock()
					}
				}
				l := newBaseLab(t)
				sinks := openListeners(t, l, held)
				conn := l.srv.Nftables(t)
				t.Cleanup(func() { _ = Remove(context.Background(), conn) })
				mustApply(t, conn, g)
				for _, f := range walk(t, l, held, sinks) {
					t.Error(f)
				}

				// The negative control: the first row's port taken out of
				// the guard is found open from the underlay.
				missing := held[0]
				g.Ports = slices.DeleteFunc(slices.Clone(g.Ports), func(p firewall.Port) bool {
					return p == firewall.Port{Number: missing.port, Proto: missing.row.Proto}
				})
				mustApply(t, conn, g)
				if f := walk(t, l, held[:1], sinks); len(f) == 0 || !strings.Contains(f[0], missing.String()) {
					t.Errorf("with %s out of the guard the walk found nothing: %v", missing, f)
				}
			})
		}
	})
	for _, row := range k0s.Listeners() {
		if row.Handling == k0s.Followed && !walked[row.Component] {
			t.Errorf("%s is followed, and no lab runs it: add a configuration that does to listenerLabs", row.Name())
		}
	}
}

// openListeners listens on every held port on every address of the server,
// as the component would; TCP ports the base lab already serves are left
// to it.
func openListeners(t *testing.T, l *lab, held []heldPort) map[int]*sink {
	sinks := map[int]*sink{}
	opened := map[int]bool{guardedPort: true, publicPort: true}
	for _, h := range held {
		switch {
		case h.row.Proto == "udp" && sinks[h.port] == nil:
			sinks[h.port] = udpSink(t, l.srv, h.port)
		case h.row.Proto == "tcp" && !opened[h.port]:
			listen(t, l.srv, h.port)
			opened[h.port] = true
		}
	}
	return sinks
}

// walk probes each held port from the underlay (v4 and v6: dropped), over
// the overlay and on loopback (answered), and says what did not hold.
func walk(t *testing.T, l *lab, held []heldPort, sinks map[int]*sink) []string {
	t.Helper()
	var (
		mu       sync.Mutex
		failures []string
		wg       sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		failures = append(failures, fmt.Sprintf(format, args...))
	}
	for _, h := range held {
		if h.row.Proto == "udp" {
			s := sinks[h.port]
			for _, to := range []string{srvPub4, srvPub6} {
				msg := "underlay " + to
				sendUDP(t, l.pub, "", hostPort(to, h.port), msg)
				if s.received(msg) {
					fail("%s: a datagram from the underlay to %s arrived", h, to)
				}
			}
			for _, c := range []struct{ from, to string }{{"overlay", srvOvl4}, {"loopback", "127.0.0.1"}} {
				ns := l.ovl
				if c.from == "loopback" {
					ns = l.srv
				}
				sendUDP(t, ns, "", hostPort(c.to, h.port), c.from)
				if !s.received(c.from) {
					fail("%s: a datagram over the %s did not arrive", h, c.from)
				}
			}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, to := range []string{srvPub4, srvPub6} {
				if err := dial(l.pub, "", hostPort(to, h.port)); err == nil || !isTimeout(err) {
					fail("%s: from the underlay to %s: %v, want a dropped SYN", h, to, err)
				}
			}
			if err := dial(l.ovl, "", hostPort(srvOvl4, h.port)); err != nil {
				fail("%s: over the overlay: %v", h, err)
			}
			if err := dial(l.srv, "", hostPort("127.0.0.1", h.port)); err != nil {
				fail("%s: on loopback: %v", h, err)
			}
		}()
	}
	wg.Wait()
	return failures
}
