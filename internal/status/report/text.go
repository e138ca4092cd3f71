package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/shown"
	"github.com/corium/corium-agent/internal/status"
)

// Text writes the report for a person: the verdict line first, then the
// layers bottom-up. Much of it is outside text (a journal line, an error
// the kernel or a server wrote, a link's name, a process's comm), so every
// line is written through shown.Line: none writes a line of its own or a
// terminal's escape sequence. Names from the host are quoted where they are
// put into a line (shown.Text), so that they stand apart.
func Text(w io.Writer, r *Report) {
	line := func(format string, args ...any) {
		io.WriteString(w, shown.Line(fmt.Sprintf(format, args...))+"\n")
	}
	line("%s", r.Verdict.Line)
	p := func(label, format string, args ...any) {
		line("%-14s"+format, append([]any{label + ":"}, args...)...)
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
		text := fmt.Sprintf("%s: %s at %s", l.Command, l.Outcome, l.FinishedAt.Format(time.RFC3339))
		if l.FailedStep != "" {
			text += " in step " + l.FailedStep
		}
		// The verdict line says the error, or its first line: said once.
		// Its lines are the joined errors', one a line.
		first, rest, more := strings.Cut(l.Error, "\n")
		var after []string
		switch {
		case l.Error != "" && strings.Contains(r.Verdict.Line, shown.Line(first)) && more:
			text += ": " + "as the first line says, and"
			after = strings.Split(rest, "\n")
		case l.Error != "" && strings.Contains(r.Verdict.Line, shown.Line(first)):
			text += " (the first line says why)"
		case l.Error != "":
			first, rest, _ := strings.Cut(l.Error, "\n")
			text += ": " + first
			if rest != "" {
				after = strings.Split(rest, "\n")
			}
		}
		p("last run", "%s", text)
		for _, a := range after {
			line("%s", a)
		}
		for _, f := range l.Refusals {
			line("  refused: %s", f)
		}
		if u := l.Unfinished; u != nil {
			line("  before it: %s", u.Line())
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
			line("  credential: %s", c)
		}
		line("  what to do: %s", a.Fix)
		for _, l := range a.Journal {
			line("  systemd: %s", l)
		}
	}
	if pr := r.Provenance; pr != nil {
		p("source", "%s", pr.SourceLine())
		for _, a := range pr.Tried {
			text := "  tried " + a.Source + ": " + a.Outcome
			if a.Reason != "" {
				text += " (" + a.Reason + ")"
			}
			line("%s", text)
		}
	}
	if n := r.NodeAddress; n != nil {
		text := orNone(n.Address)
		if d := n.Decision; d != nil {
			text += " (" + d.How + ")"
			if n.Recomputed {
				text += " [decided again now from the live links]"
			}
		}
		p("node address", "%s", text)
		if n.Decision != nil {
			for _, c := range n.Decision.Candidates {
				mark := "rejected"
				if c.Taken {
					mark = "taken"
				}
				line("  %s %s on %s: %s", mark, c.Address, shown.Text(c.Interface), c.Reason)
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
				line("  %s endpoint %s: %s", e.Interface, e.Endpoint, e.Problem)
			} else {
				line("  %s endpoint %s: via %s", e.Interface, e.Endpoint, shown.Text(e.Via))
			}
		}
	}
	for _, it := range r.Interfaces {
		p("tunnel "+it.Name, "unit %s %s; device %s", it.Unit, it.UnitState, it.Device)
		if it.Device == DevicePresent {
			line("  public key %s, listen port %d, addresses %s", it.PublicKey, it.ListenPort, orNone(strings.Join(it.Addresses, " ")))
		}
		for _, d := range it.Drift {
			line("  drift %s: want %s, have %s", d.Field, d.Want, d.Have)
		}
		for _, pe := range it.Peers {
			text := fmt.Sprintf("  peer %s %s: endpoint %s", pe.Name(), pe.Class, orNone(pe.Endpoint))
			if pe.LiveEndpoint != "" && pe.LiveEndpoint != pe.Endpoint {
				text += fmt.Sprintf(" (live %s)", pe.LiveEndpoint)
			}
			text += fmt.Sprintf(", allowed %s", strings.Join(pe.AllowedIPs, " "))
			if pe.Class != Missing && pe.Class != Unknown {
				text += fmt.Sprintf(", rx %d B, tx %d B, %s", pe.RxBytes, pe.TxBytes, handshake(pe))
			}
			line("%s", text)
		}
	}
	if f := r.Firewall; f != nil {
		p("firewall", "%s: %s", f.Status, f.Reason)
		if f.FileProblem != "" {
			line("  guard file: %s", f.FileProblem)
		}
	}
	textListeners(line, r.Listeners)
	if k := r.K0s; k != nil {
		text := fmt.Sprintf("unit %s %s", k.Unit, k.UnitState)
		if k.InstalledAddress != "" {
			text += fmt.Sprintf("; installed with %s (from %s)", shown.Text(k.InstalledAddress), k.Via)
		}
		p("k0s", "%s", text)
	}
	if len(r.Unknown) > 0 {
		line("could not check:")
		for _, u := range r.Unknown {
			line("  %s", u)
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
