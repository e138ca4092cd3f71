package cluster

import (
	"fmt"

	"github.com/corium/corium-agent/internal/schema"
)

// guards: a cluster whose nodes guard their k0s ports (clusterPorts:
// overlay) admits them only through the tunnel; one node left open (the
// default) answers them on every link, so the underlay reaches that node's
// kubelet, etcd or API as the others' guards refuse it. Each open node is
// named, beside the first that guards.
func (c *check) guards() {
	var guarded *node
	count := 0
	for _, n := range c.set {
		if n.eff.Firewall.ClusterPorts == schema.ClusterPortsOverlay && !n.bad["firewall.clusterPorts"] {
			if guarded == nil {
				guarded = n
			}
			count++
		}
	}
	if guarded == nil {
		return
	}
	for _, n := range c.set {
		if n.eff.Firewall.ClusterPorts != schema.ClusterPortsOpen || n.bad["firewall.clusterPorts"] {
			continue
		}
		how := "is open"
		if n.cfg.Firewall.ClusterPorts == "" {
			how = "is open (the default)"
		}
		who, verb := nodeName(guarded), "admits"
		if count > 1 {
			who, verb = fmt.Sprintf("%s and %d other %s", who, count-1, plural(count-1, "node", "nodes")), "admit"
		}
		c.errorf(n, "firewall.clusterPorts", []Place{guarded.at("firewall.clusterPorts")},
			"%s, but %s %s the k0s ports only through the overlay (clusterPorts: overlay): this node answers them on every link, so the underlay reaches here what the rest of the cluster refuses; set clusterPorts: overlay",
			how, who, verb)
	}
}
