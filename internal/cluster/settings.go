package cluster

import (
	"net/netip"
	"strconv"
)

// setting is a value every node it applies to must share.
type setting struct {
	path string
	// value is the node's effective value; ok false when the setting does
	// not apply to the node or is not set where it has no default.
	value func(n *node) (v string, ok bool)
	// written says the document sets it (else it is the default).
	written func(n *node) bool
	// why ends the message: what breaks when nodes disagree.
	why string
}

var settings = []setting{
	{"cluster.name", func(n *node) (string, bool) { return n.eff.Cluster.Name, true },
		func(n *node) bool { return n.cfg.Cluster.Name != "" },
		"k0s names the cluster by it, and its certificates and secrets with it"},
	{"network.podCIDR", func(n *node) (string, bool) { return canonicalPrefix(n.eff.Network.PodCIDR), true },
		func(n *node) bool { return n.cfg.Network.PodCIDR != "" },
		"the controllers hand nodes pod ranges from one pod range, and the guard and the CNI of each node trust the one in its own document"},
	{"network.serviceCIDR", func(n *node) (string, bool) { return canonicalPrefix(n.eff.Network.ServiceCIDR), true },
		func(n *node) bool { return n.cfg.Network.ServiceCIDR != "" },
		"service addresses come from one range, and every node's kube-proxy must route it"},
	{"network.cni", func(n *node) (string, bool) { return string(n.eff.Network.CNI), true },
		func(n *node) bool { return n.cfg.Network.CNI != "" },
		"one cluster runs one CNI"},
	{"storage.type", func(n *node) (string, bool) { return string(n.eff.Storage.Type), n.cfg.Role.IsController() },
		func(n *node) bool { return n.cfg.Storage.Type != "" },
		"the controllers share one datastore"},
	{"cluster.endpoint", func(n *node) (string, bool) { return n.cfg.Cluster.Endpoint, n.cfg.Cluster.Endpoint != "" },
		func(*node) bool { return true },
		"clients and joining nodes reach the API at one address"},
	{"ha.virtualIP", func(n *node) (string, bool) {
		return n.cfg.HA.VirtualIP, n.cfg.Role.IsController() && n.cfg.HA.On() && n.cfg.HA.VirtualIP != ""
	}, func(*node) bool { return true },
		"the controllers' keepalived share one virtual IP"},
	{"ha.virtualRouterID", func(n *node) (string, bool) {
		if n.cfg.HA.VirtualRouterID == nil || !n.cfg.Role.IsController() || !n.cfg.HA.On() {
			return "", false
		}
		return strconv.Itoa(*n.cfg.HA.VirtualRouterID), true
	}, func(*node) bool { return true },
		"keepalived instances with different router IDs are different VRRP groups, each holding the virtual IP"},
}

// settings: values of the cluster, not of a node, agree. The value most
// files have is the reference (majority.go); each file that differs is
// named.
func (c *check) settings() {
	for _, s := range settings {
		ref, want, holders := c.reference(s.value)
		for _, n := range c.set {
			v, ok := s.value(n)
			if !ok || v == want {
				continue
			}
			related := []Place{ref.at(s.path)}
			if n.bad[s.path] || ref.bad[s.path] {
				// A value the field rules refused is not shown.
				c.errorf(n, s.path, related, "differs from %s's; every node of one cluster has the same %s: %s", ref.File, s.path, s.why)
				continue
			}
			c.errorf(n, s.path, related, "is %s%s, but %s has %s%s%s; every node of one cluster has the same %s: %s",
				v, defaultNote(s, n), ref.File, want, defaultNote(s, ref), alsoHeld(holders), s.path, s.why)
		}
	}
}

func defaultNote(s setting, n *node) string {
	if s.written(n) {
		return ""
	}
	return " (the default)"
}

// canonicalPrefix spells a prefix one way, so 10.244.0.0/16 equals itself
// however it is written.
func canonicalPrefix(s string) string {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.String()
	}
	return s
}
