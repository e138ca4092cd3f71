package firewall

import (
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/schema"
)

// Endpoint is the cluster endpoint the guard admits clients at: an address
// of this node off the overlay (an underlay virtual IP, a load balancer's,
// the node's own LAN address) and the guarded ports they reach the cluster
// on there.
type Endpoint struct {
	Address string `json:"address"`
	Ports   []Port `json:"ports"`
}

// renderEndpoint decides what a controller's guard does with
// cluster.endpoint. The agent makes it k0s's api.externalAddress, and k0s
// points joining controllers (9443), konnectivity agents (8132) and kubelets
// and kube-proxy (6443) at it (k0s.Ports.Endpoint cites where). When it is
// an IP on the overlay, those packets come through the tunnel: nothing to
// do. Off the overlay they come in on the underlay (a keepalived virtual IP
// on eth0, a load balancer forwarding to the node), so the guard admits
// exactly those of the three it guards, addressed to that IP, from any link;
// the node's other addresses stay overlay-only. A name's address cannot be
// known here: the three must be public, which validation also demands.
//
// A worker's guard covers its own ports only (the kubelet, the CNI's), which
// nobody reaches through the endpoint.
func renderEndpoint(cfg *schema.Config, g Guard, endpointPorts []k0s.Port) (*Endpoint, error) {
	if !cfg.Role.IsController() {
		return nil, nil
	}
	kind, addr := schema.ClusterEndpoint(cfg)
	var guarded []Port
	for _, p := range endpointPorts {
		if port := (Port{Number: p.Number, Proto: p.Proto}); slices.Contains(g.Ports, port) {
			guarded = append(guarded, port)
		}
	}
	switch {
	case len(guarded) == 0, kind == schema.EndpointNone, kind == schema.EndpointOverlay:
		return nil, nil
	case kind == schema.EndpointName:
		return nil, fmt.Errorf("cluster.endpoint: %s is a name, whose address the guard cannot know, so what reaches the cluster through it would be dropped; add %s to firewall.publicPorts, or give the endpoint as an IP", cfg.Cluster.Endpoint, joinPortNumbers(guarded))
	}
	return &Endpoint{Address: addr.String(), Ports: guarded}, nil
}

func joinPortNumbers(ps []Port) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = fmt.Sprint(p.Number)
	}
	return strings.Join(s, ", ")
}

// checkEndpoint refuses an endpoint that is not an address, or names a port
// the guard does not police. Which ports clients reach through it is the
// effective ClusterConfig's (k0s.Ports), which a file does not carry.
func (g Guard) checkEndpoint() error {
	e := g.Endpoint
	if e == nil {
		return nil
	}
	if a, err := netip.ParseAddr(e.Address); err != nil || a.Zone() != "" || a.Is4In6() || a.String() != e.Address {
		return fmt.Errorf("endpoint.address: %q is not an IP address as the guard writes it", e.Address)
	}
	if len(e.Ports) == 0 {
		return fmt.Errorf("endpoint.ports: empty; an endpoint that admits nothing is left out")
	}
	for i, p := range e.Ports {
		if p.Proto != "tcp" {
			return fmt.Errorf("endpoint.ports[%d]: %s is not a TCP port, which is all clients reach the cluster on through its endpoint", i, p)
		}
		if !slices.Contains(g.Ports, p) {
			return fmt.Errorf("endpoint.ports[%d]: %s is not a guarded port", i, p)
		}
		if first := slices.Index(e.Ports, p); first < i {
			return fmt.Errorf("endpoint.ports[%d]: duplicates endpoint.ports[%d] (%s)", i, first, p)
		}
	}
	return nil
}
