package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/nft"
)

// printGuard writes the guard and, when the table was read, how it
// compares. The pod masquerade has its own line: a table holding it alone
// is never shown as a guard in force.
func printGuard(w io.Writer, g firewall.Guard, r *nft.Report) {
	if !g.On {
		fmt.Fprintln(w, "guard:       off (clusterPorts: open)")
	} else {
		fmt.Fprintln(w, "guard:       on (clusterPorts: overlay)")
		fmt.Fprintf(w, "guarded:     %s\n", joinPorts(g.Ports))
		fmt.Fprintf(w, "public:      %s\n", joinPorts(g.PublicPorts))
		fmt.Fprintf(w, "interfaces:  %s\n", strings.Join(g.Interfaces, " "))
		fmt.Fprintf(w, "pod network: %s %s\n", podRanges(g), podWhere(g))
		if len(g.Tunnels) > 0 {
			fmt.Fprintf(w, "tunnels:     %s (dropped unless they arrive on the interfaces above)\n", strings.Join(g.Tunnels, " "))
		}
		if e := g.Endpoint; e != nil {
			fmt.Fprintf(w, "endpoint:    %s, off the overlay: %s addressed to it accepted from any link\n", e.Address, joinPorts(e.Ports))
		}
		if o := g.Outdated(); o != "" {
			fmt.Fprintf(w, "outdated:    %s\n", o)
		}
	}
	if g.Masquerade {
		var wg []string
		for _, name := range g.Interfaces {
			if name != "lo" {
				wg = append(wg, name)
			}
		}
		fmt.Fprintf(w, "masquerade:  pods (%s) to addresses outside it, out of %s, take the node's address (%s)\n", podRanges(g), strings.Join(wg, " "), g.CNI)
	}
	if r == nil {
		return
	}
	fmt.Fprintf(w, "table:       %s: %s\n", r.Status, r.Reason)
	if r.Want != "" {
		fmt.Fprintf(w, "rendered:    sha256=%s\n", r.Want)
	}
	if r.Loaded != "" && r.Loaded != r.Want {
		fmt.Fprintf(w, "loaded:      sha256=%s\n", r.Loaded)
	}
}

// podWhere says on which interfaces pod sources are accepted.
func podWhere(g firewall.Guard) string {
	switch {
	case len(g.PodInterfaces) > 0:
		return "on " + strings.Join(g.PodInterfaces, " ") + " (" + g.CNI + ")"
	case g.CNI != "":
		return "on no interface (" + g.CNI + ": the guard does not know this CNI's interfaces)"
	}
	return "on no interface"
}

func joinPorts(ps []firewall.Port) string {
	if len(ps) == 0 {
		return "none"
	}
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, " ")
}

// podRanges are the guard's pod ranges as one line: both in a dual-stack
// cluster.
func podRanges(g firewall.Guard) string {
	if g.IPv6PodCIDR == "" {
		return g.PodCIDR
	}
	return g.PodCIDR + " " + g.IPv6PodCIDR
}
