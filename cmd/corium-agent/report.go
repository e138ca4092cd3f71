package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/shown"
	"github.com/corium/corium-agent/internal/status"
)

// The lines apply and plan print alike, so a plan reads like the run it
// foretells. Each may carry outside text (a source's URL, a link's name in
// how the node address was decided, a hostname from metadata, a path from
// write_files), so each is written through shown.Line: one line, no
// terminal escape.

func printSource(w io.Writer, p *status.Provenance) {
	if p == nil {
		return
	}
	fmt.Fprintf(w, "source: %s\n", shown.Line(p.SourceLine()))
}

func printNodeAddress(w io.Writer, n *status.NodeAddress) {
	switch {
	case n == nil:
	case n.Address == "":
		// How starts with why there is none ("decided at boot: ...").
		fmt.Fprintf(w, "node address: %s\n", shown.Line(n.How))
	default:
		fmt.Fprintf(w, "node address: %s (%s)\n", n.Address, shown.Line(n.How))
	}
}

func printHostname(w io.Writer, h *status.Hostname) {
	switch {
	case h == nil:
	case h.Name == "":
		fmt.Fprintf(w, "hostname: %s\n", shown.Line(h.Source))
	default:
		fmt.Fprintf(w, "hostname: %s (%s)\n", shown.Text(h.Name), shown.Line(h.Source))
	}
}

// printFile writes one file or link line; a link has a target, a removed
// file no mode.
func printFile(w io.Writer, change, path, target, mode string) {
	path, target = shown.Text(path), shown.Text(target)
	switch {
	case target != "":
		fmt.Fprintf(w, "  %-9s %s -> %s\n", change, path, target)
	case mode == "":
		fmt.Fprintf(w, "  %-9s %s\n", change, path)
	default:
		fmt.Fprintf(w, "  %-9s %s (%s)\n", change, path, mode)
	}
}

// actionLine spells an action as one line, without the gaps an action with
// no unit or no arguments would leave.
func actionLine(kind, unit string, args []string) string {
	return strings.Join(strings.Fields(strings.Join(append([]string{kind, unit}, args...), " ")), " ")
}
