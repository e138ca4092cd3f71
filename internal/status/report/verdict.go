package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/shown"
	"github.com/corium/corium-agent/internal/status"
)

// judge reads the layers bottom-up and names the lowest broken one. A failed
// last run outranks everything: the node is not what its configuration says.
// What could not be checked never makes a node degraded by itself, but an ok
// verdict says what it could not check. The agent's unit failing without
// a record of that start outranks the last record, which is older.
func judge(r *Report, appliedErr error) Verdict {
	// Reported only when no record is from its failed start: any record
	// there is, is older.
	if a := r.AgentUnit; a != nil {
		return verdict(Failed, StepUnit, a.Reason)
	}
	if l := r.LastRun; l != nil && l.Outcome == status.Failed {
		return verdict(Failed, l.FailedStep, l.Error)
	}
	if !r.Provisioned {
		why := "no marker at " + status.MarkerPath
		if r.LastRun != nil {
			why += "; the last run was " + string(r.LastRun.Outcome)
		}
		return verdict(Unprovisioned, "", why)
	}
	if appliedErr != nil {
		return verdict(Failed, render.StepRecord, appliedErr.Error()+"; the marker says provisioned, but what was applied cannot be compared with")
	}
	layers := []struct {
		name     string
		problems []string
	}{
		{LayerRoute, routeProblems(r)},
		{LayerTunnel, tunnelProblems(r)},
		{LayerFirewall, append(firewallProblems(r), listenerProblems(r)...)},
		{LayerK0s, k0sProblems(r)},
	}
	for _, l := range layers {
		if len(l.problems) == 0 {
			continue
		}
		why := l.problems[0]
		if n := len(l.problems) - 1; n > 0 {
			why += fmt.Sprintf(" (and %d more)", n)
		}
		return verdict(Degraded, l.name, why)
	}
	if len(r.Unknown) > 0 {
		whats := make([]string, 0, len(r.Unknown))
		for _, u := range r.Unknown {
			what, _, _ := strings.Cut(u, ": ")
			whats = append(whats, what)
		}
		v := verdict(OK, "", "could not check: "+strings.Join(r.Unknown, "; "))
		v.Line = shown.Line("ok (could not check: " + strings.Join(dedupe(whats), ", ") + ")")
		return v
	}
	return verdict(OK, "", "")
}

// verdict is the verdict with its line, which is printed first and must
// stay one line: the reason may carry outside text (an error the kernel
// wrote, a line of a record), so the line is written through shown.Line.
func verdict(s State, layer, why string) Verdict {
	v := Verdict{State: s, Layer: layer, Reason: why, Line: string(s)}
	switch s {
	case Degraded, Failed:
		v.Line = shown.Line(fmt.Sprintf("%s: %s: %s", s, layer, oneLine(why)))
	case Unprovisioned:
		v.Line = shown.Line(string(s) + " (" + oneLine(why) + ")")
	}
	return v
}

// oneLine keeps the verdict one line when the reason is several joined errors
// (every finding of a failed validation): the first, and how many follow; the
// detail below the verdict has them all.
func oneLine(why string) string {
	lines := strings.Split(strings.TrimSpace(why), "\n")
	if len(lines) == 1 {
		return lines[0]
	}
	return fmt.Sprintf("%s (and %d more)", lines[0], len(lines)-1)
}

func routeProblems(r *Report) []string {
	if r.Route == nil || r.Route.OK {
		return nil
	}
	return []string{r.Route.Reason}
}

func tunnelProblems(r *Report) []string {
	var out []string
	for _, it := range r.Interfaces {
		if s, known := activeState(it.UnitState); known && s != "active" {
			out = append(out, fmt.Sprintf("%s is %s; see journalctl -u %s", it.Unit, s, it.Unit))
		}
		if it.Device == DeviceAbsent {
			out = append(out, fmt.Sprintf("%s: the device is absent; see journalctl -u %s", it.Name, it.Unit))
			continue
		}
		for _, p := range it.Peers {
			switch p.Class {
			case Stale:
				out = append(out, fmt.Sprintf("%s: peer %s is stale: last handshake %s ago", it.Name, p.Name(), time.Duration(p.HandshakeAgeSeconds)*time.Second))
			case Never:
				out = append(out, fmt.Sprintf("%s: peer %s never completed a handshake", it.Name, p.Name()))
			case Missing:
				out = append(out, fmt.Sprintf("%s: peer %s is missing from the device", it.Name, p.Name()))
			}
		}
		if len(it.Drift) > 0 {
			fields := make([]string, 0, len(it.Drift))
			for _, d := range it.Drift {
				fields = append(fields, d.Field)
			}
			out = append(out, fmt.Sprintf("%s: differs from the applied configuration in %s", it.Name, strings.Join(dedupe(fields), ", ")))
		}
	}
	return out
}

func firewallProblems(r *Report) []string {
	f := r.Firewall
	if f == nil {
		return nil
	}
	var out []string
	if f.Status == string(nft.Stale) || f.Status == string(nft.Missing) {
		what := "guard"
		if f.Holds == "the pod masquerade" {
			what = "pod masquerade" // the guard is off: never call it one
		}
		out = append(out, what+" "+f.Status+": "+f.Reason)
	}
	if f.FileProblem != "" {
		out = append(out, "guard file: "+f.FileProblem)
	}
	return out
}

func k0sProblems(r *Report) []string {
	k := r.K0s
	if k == nil {
		return nil
	}
	var out []string
	if s, known := activeState(k.UnitState); known && s != "active" {
		out = append(out, fmt.Sprintf("%s is %s; see journalctl -u %s", k.Unit, s, k.Unit))
	}
	if k.AddressOnHost != nil && !*k.AddressOnHost {
		out = append(out, fmt.Sprintf("joined with %s (from %s), which no interface of this host carries: the cluster reaches the node at an address it does not have", k.InstalledAddress, k.Via))
	}
	return out
}

// activeState is the active state of a "load/active/sub" unit state, and
// whether the state was read at all.
func activeState(s string) (string, bool) {
	if strings.HasPrefix(s, "unknown") {
		return "", false
	}
	parts := strings.Split(s, "/")
	if len(parts) != 3 {
		return "", false
	}
	if parts[0] != "loaded" {
		return parts[0], true // not-found, masked: as telling as inactive
	}
	return parts[1], true
}

func dedupe(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
