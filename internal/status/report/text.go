package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/status"
)

// Text writes the report for a person: the verdict line first, then the
// layers bottom-up.
func Text(w io.Writer, r *Report) {
	fmt.Fprintln(w, r.Verdict.Line)
	p := func(label, format string, args ...any) {
		fmt.Fprintf(w, "%-14s"+format+"\n", append([]any{label + ":"}, args...)...)
	}
	if r.Provisioned {
		p("provisioned", "yes")
	} else {
		p("provisioned", "no")
	}
	if a := r.Applied; a != nil {
		p("applied", "%s: role %s, cluster %s, interfaces %s, clusterPorts %s", a.Path, a.Role, orNone(a.Cluster), orNone(strings.Join(a.Interfaces, " ")), orNone(a.Guard))
	}
	if r.LastRun == nil {
		p("last run", "none recorded (%s is gone after a reboot)", status.Path)
	}
	if l := r.LastRun; l != nil {
		line := fmt.Sprintf("%s: %s at %s", l.Command, l.Outcome, l.FinishedAt.Format(time.RFC3339))
		if l.FailedStep != "" {
			line += " in step " + l.FailedStep
		}
		// The verdict line says the error, or its first line: said once.
		first, rest, more := strings.Cut(l.Error, "\n")
		switch {
		case l.Error != "" && strings.Contains(r.Verdict.Line, first) && more:
			line += ": " + "as the first line says, and\n" + rest
		case l.Error != "" && strings.Contains(r.Verdict.Line, first):
			line += " (the first line says why)"
		case l.Error != "":
			line += ": " + l.Error
		}
		p("last run", "%s", line)
		for _, f := range l.Refusals {
			fmt.Fprintf(w, "  refused: %s\n", f)
		}
		if u := l.Unfinished; u != nil {
			fmt.Fprintf(w, "  before it: %s\n", u.Line())
		}
	}
	if a := r.AgentUnit; a != nil {
		ran := "the agent ran"
		if a.BeforeAgent {
			ran = "failed before the agent ran"
		}
		exit := a.ExitStatus
		if exit == "" {
			exit = "no exit status"
		}
		p("agent unit", "%s: %s, %s; %s", a.Unit, a.Result, exit, ran)
		for _, c := range a.Credentials {
			fmt.Fprintf(w, "  credential: %s\n", c)
		}
		fmt.Fprintf(w, "  what to do: %s\n", a.Fix)
		for _, l := range a.Journal {
			fmt.Fprintf(w, "  systemd: %s\n", l)
		}
	}
	if pr := r.Provenance; pr != nil {
		p("source", "%s", pr.SourceLine())
		for _, a := range pr.Tried {
			line := "  tried " + a.Source + ": " + a.Outcome
			if a.Reason != "" {
				line += " (" + a.Reason + ")"
			}
			fmt.Fprintln(w, line)
		}
	}
	if n := r.NodeAddress; n != nil {
		line := orNone(n.Address)
		if d := n.Decision; d != nil {
			line += " (" + d.How + ")"
			if n.Recomputed {
				line += " [decided again now from the live links]"
			}
		}
		p("node address", "%s", line)
		if n.Decision != nil {
			for _, c := range n.Decision.Candidates {
				mark := "rejected"
				if c.Taken {
					mark = "taken"
				}
				fmt.Fprintf(w, "  %s %s on %s: %s\n", mark, c.Address, c.Interface, c.Reason)
			}
		}
	}
	if rt := r.Route; rt != nil {
		state := "ok"
		if !rt.OK {
			state = "broken"
		}
		p("route", "%s: %s (default route: %s)", state, rt.Reason, orNone(rt.DefaultRoute))
		for _, e := range rt.Endpoints {
			if e.Problem != "" {
				fmt.Fprintf(w, "  %s endpoint %s: %s\n", e.Interface, e.Endpoint, e.Problem)
			} else {
				fmt.Fprintf(w, "  %s endpoint %s: via %s\n", e.Interface, e.Endpoint, e.Via)
			}
		}
	}
	for _, it := range r.Interfaces {
		p("tunnel "+it.Name, "unit %s %s; device %s", it.Unit, it.UnitState, it.Device)
		if it.Device == DevicePresent {
			fmt.Fprintf(w, "  public key %s, listen port %d, addresses %s\n", it.PublicKey, it.ListenPort, orNone(strings.Join(it.Addresses, " ")))
		}
		for _, d := range it.Drift {
			fmt.Fprintf(w, "  drift %s: want %s, have %s\n", d.Field, d.Want, d.Have)
		}
		for _, pe := range it.Peers {
			fmt.Fprintf(w, "  peer %s %s: endpoint %s", pe.Name(), pe.Class, orNone(pe.Endpoint))
			if pe.LiveEndpoint != "" && pe.LiveEndpoint != pe.Endpoint {
				fmt.Fprintf(w, " (live %s)", pe.LiveEndpoint)
			}
			fmt.Fprintf(w, ", allowed %s", strings.Join(pe.AllowedIPs, " "))
			if pe.Class != Missing && pe.Class != Unknown {
				fmt.Fprintf(w, ", rx %d B, tx %d B, %s", pe.RxBytes, pe.TxBytes, handshake(pe))
			}
			fmt.Fprintln(w)
		}
	}
	if f := r.Firewall; f != nil {
		p("firewall", "%s: %s", f.Status, f.Reason)
		if f.FileProblem != "" {
			fmt.Fprintf(w, "  guard file: %s\n", f.FileProblem)
		}
	}
	textListeners(w, r.Listeners)
	if k := r.K0s; k != nil {
		line := fmt.Sprintf("unit %s %s", k.Unit, k.UnitState)
		if k.InstalledAddress != "" {
			line += fmt.Sprintf("; installed with %s (from %s)", k.InstalledAddress, k.Via)
		}
		p("k0s", "%s", line)
	}
	if len(r.Unknown) > 0 {
		fmt.Fprintln(w, "could not check:")
		for _, u := range r.Unknown {
			fmt.Fprintf(w, "  %s\n", u)
		}
	}
}

func handshake(p Peer) string {
	if p.HandshakeAgeSeconds < 0 {
		return "no handshake"
	}
	return fmt.Sprintf("last handshake %s ago", time.Duration(p.HandshakeAgeSeconds)*time.Second)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
