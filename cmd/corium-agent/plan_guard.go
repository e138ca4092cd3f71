package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/firewall"
)

// printGuardSummary is plan's one line on the guard it renders (the report's
// Guard, read back from the rendered file): what is guarded, what is
// public, and the links trusted to reach the guarded ports. firewall show
// prints the same guard in full once it is on the node.
func printGuardSummary(w io.Writer, g *firewall.Guard) {
	if g == nil {
		return
	}
	if !g.On {
		line := "guard: off (clusterPorts: open): every cluster port is reachable from any link"
		if g.Masquerade {
			line += "; the table holds the pod masquerade alone"
		}
		fmt.Fprintln(w, line)
		return
	}
	line := fmt.Sprintf("guard: on (clusterPorts: overlay): guarded %s; trusted %s", joinPorts(g.Ports), strings.Join(g.Interfaces, " "))
	if len(g.PodInterfaces) > 0 {
		line += ", and pods on " + strings.Join(g.PodInterfaces, " ")
	}
	line += "; public " + joinPorts(g.PublicPorts)
	if e := g.Endpoint; e != nil {
		line += fmt.Sprintf("; %s addressed to %s from any link", joinPorts(e.Ports), e.Address)
	}
	if g.Masquerade {
		line += "; pods masqueraded out of the overlay"
	}
	fmt.Fprintln(w, line)
}
