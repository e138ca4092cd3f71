package firewall

import (
	"errors"
	"fmt"
	"net/netip"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/schema"
)

// Check refuses a guard that cannot be programmed as written, whether it came
// from Render or from a file edited by hand.
func (g Guard) Check() error {
	if !g.On && g.Masquerade {
		if g.FileVersion == 0 && g.CNI != string(schema.CNIKubeRouter) {
			return fmt.Errorf("cni: %q is not kuberouter, the one CNI the masquerade is for", g.CNI)
		}
		return g.checkMasqueradeOnly()
	}
	if !g.On {
		if len(g.Ports)+len(g.Interfaces)+len(g.PublicPorts)+len(g.PodInterfaces)+len(g.Tunnels) > 0 || g.PodCIDR != "" || g.IPv6PodCIDR != "" || g.CNI != "" || g.Endpoint != nil {
			return errors.New("guard is off but lists ports, interfaces, a pod network or an endpoint")
		}
		return nil
	}
	if len(g.Ports) == 0 {
		return errors.New("ports: empty; a guard that polices nothing is refused")
	}
	seen := map[string]int{}
	for i, p := range g.Ports {
		if p.Number < 1 || p.Number > 65535 || (p.Proto != "tcp" && p.Proto != "udp") {
			return fmt.Errorf("ports[%d]: %d/%s is not a tcp or udp port", i, p.Number, p.Proto)
		}
		if first, dup := seen[p.String()]; dup {
			return fmt.Errorf("ports[%d]: duplicates ports[%d] (%s)", i, first, p)
		}
		seen[p.String()] = i
	}
	if !slices.Contains(g.Interfaces, "lo") {
		return errors.New("interfaces: lo is missing; the node would lose its own cluster ports")
	}
	if err := checkNames("interfaces", g.Interfaces, false); err != nil {
		return err
	}
	if err := g.checkPodNetworks(); err != nil {
		return err
	}
	if g.FileVersion == 0 {
		if _, ok := cniNetworkOf(schema.CNI(g.CNI), config.Network{}); !ok {
			return fmt.Errorf("cni: %q is not kuberouter, calico or custom", g.CNI)
		}
	}
	if err := checkNames("podInterfaces", g.PodInterfaces, true); err != nil {
		return err
	}
	if g.Masquerade && g.FileVersion == 0 && g.CNI != string(schema.CNIKubeRouter) {
		return fmt.Errorf("masquerade: is for kuberouter, not %q", g.CNI)
	}
	if err := g.checkEndpoint(); err != nil {
		return err
	}
	for i, name := range g.Tunnels {
		if _, ok := TunnelMatches[name]; !ok {
			return fmt.Errorf("tunnels[%d]: %q is not %s or %s", i, name, tunnelIPIP, tunnelIP6IP6)
		}
		if first := slices.Index(g.Tunnels, name); first < i {
			return fmt.Errorf("tunnels[%d]: duplicates tunnels[%d] (%s)", i, first, name)
		}
	}
	return nil
}

// checkNames refuses names that are not interface names (IFNAMSIZ holds 15
// bytes and the terminating zero) and duplicates; with prefixes, a trailing
// "*" after at least one byte makes a prefix.
func checkNames(field string, names []string, prefixes bool) error {
	at := map[string]int{}
	for i, name := range names {
		bare := name
		if prefixes {
			bare = strings.TrimSuffix(name, "*")
		}
		if bare == "" || len(bare) > 15 || strings.ContainsAny(bare, "*/ \x00") {
			return fmt.Errorf("%s[%d]: %q is not an interface name", field, i, name)
		}
		if first, dup := at[name]; dup {
			return fmt.Errorf("%s[%d]: duplicates %s[%d] (%s)", field, i, field, first, name)
		}
		at[name] = i
	}
	return nil
}

// checkPodNetworks refuses pod ranges the table cannot match as written: a
// podCIDR that does not parse, and beside it an ipv6PodCIDR that does not
// parse or is not IPv6 next to an IPv4 podCIDR (k0s's dual stack: the
// first range IPv4, the second IPv6).
func (g Guard) checkPodNetworks() error {
	pod, err := netip.ParsePrefix(g.PodCIDR)
	if err != nil {
		return fmt.Errorf("podCIDR: %w", err)
	}
	if g.IPv6PodCIDR == "" {
		return nil
	}
	v6, err := netip.ParsePrefix(g.IPv6PodCIDR)
	switch {
	case err != nil:
		return fmt.Errorf("ipv6PodCIDR: %w", err)
	case !pod.Addr().Is4():
		return fmt.Errorf("podCIDR: %s is not IPv4, which it must be beside ipv6PodCIDR (dual stack)", g.PodCIDR)
	case !v6.Addr().Is6() || v6.Addr().Is4In6():
		return fmt.Errorf("ipv6PodCIDR: %s is not an IPv6 range", g.IPv6PodCIDR)
	}
	return nil
}
