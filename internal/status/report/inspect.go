package report

import (
	"context"
	"errors"
	"io/fs"
	"net/netip"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/systemd"
)

// Links reads the host's links and routes; LinkFacts is the live one.
type Links interface {
	Facts() (*hostfacts.Facts, error)
	// RouteTo names the link the route to dst leaves by; an error when
	// there is none.
	RouteTo(dst netip.Addr) (string, error)
}

// Units reads unit states; *bus.DBus and *systemdtest.Fake are ones.
type Units interface {
	UnitState(ctx context.Context, unit string) (systemd.State, error)
}

// Options say where to look. A nil live part is reported as unknown, with
// the matching Why (or "not available") as the reason.
type Options struct {
	Root rootfs.Root
	// Devices reads WireGuard devices by name (wgctrl).
	Devices    apply.WireGuardDevices
	DevicesWhy string
	Links      Links
	LinksWhy   string
	Units      Units
	UnitsWhy   string
	Guard      Guard
	GuardWhy   string
	// Sockets reads what listens in the node's namespace (listeners.go).
	Sockets    Sockets
	SocketsWhy string
	// Services and Journal read the agent unit's last start, reported
	// when it failed without a record of the agent's own (agentunit.go).
	Services Services
	Journal  Journal
	// Now is the clock handshakes are aged by; time.Now when nil.
	Now func() time.Time
}

// inspection is one run of Inspect: the options, what was read once, and
// the report being filled.
type inspection struct {
	ctx    context.Context
	o      Options
	now    time.Time
	r      *Report
	run    *status.Status // nil when the status file is absent
	cfg    *schema.Config // nil when the applied configuration is absent
	cfgErr error          // why cfg is nil on a provisioned node
	// k0s is cfg's effective k0s configuration, computed once when cfg is
	// read: the node address and the guard are decided again from it.
	eff     k0s.Effective
	facts   *hostfacts.Facts
	factErr error
}

// Inspect reads the node and judges it. It never fails: whatever cannot be
// read is in Report.Unknown, and a provisioned node whose state cannot be
// told is never reported ok without saying so.
func Inspect(ctx context.Context, o Options) *Report {
	if o.Now == nil {
		o.Now = time.Now
	}
	in := &inspection{ctx: ctx, o: o, now: o.Now()}
	in.r = &Report{CheckedAt: in.now.UTC(), Root: o.Root.Dir(), Interfaces: []Interface{}}
	in.readFiles()
	in.agentUnit()
	if in.r.Provisioned && in.cfg != nil {
		if o.Units == nil {
			in.unknown("unit states", why(o.UnitsWhy))
		}
		if o.Devices == nil {
			in.unknown("wireguard devices", why(o.DevicesWhy))
		}
		in.readFacts()
		in.nodeAddress()
		in.route()
		for _, wg := range in.cfg.WireGuard {
			in.r.Interfaces = append(in.r.Interfaces, in.tunnel(wg))
		}
		in.firewall()
		in.listeners()
		in.k0s()
	}
	in.r.Verdict = judge(in.r, in.cfgErr)
	return in.r
}

func (in *inspection) unknown(what, why string) {
	in.r.Unknown = append(in.r.Unknown, what+": "+why)
}

func why(s string) string {
	if s == "" {
		return "not available"
	}
	return s
}

// readFiles reads the marker, the status file of the last run and the
// applied configuration.
func (in *inspection) readFiles() {
	root := in.o.Root
	in.r.Provisioned = root.Exists(status.MarkerPath)
	st, err := store.Read(root)
	switch {
	case err == nil:
		in.run = st
		in.r.LastRun = lastRun(st)
		in.r.Provenance = st.Provenance
		if st.Provenance == nil {
			in.unknown("provenance", "the last run ("+string(st.Outcome)+") read no configuration")
		}
	case errors.Is(err, fs.ErrNotExist):
		// Every reboot clears /run: no record of the last run is the normal
		// state of a provisioned node, not something left unchecked.
	default:
		in.unknown("last run", err.Error())
	}
	if !in.r.Provisioned {
		return
	}
	cfg, err := store.ReadApplied(root)
	if err != nil {
		in.cfgErr = err
		in.unknown("applied configuration", err.Error())
		return
	}
	in.cfg = cfg
	// The one computation of the applied document's effective
	// configuration in this run: the record is not validated again.
	in.eff = schema.Effective(cfg)
	a := &Applied{Path: status.AppliedPath, Role: string(cfg.Role), Cluster: cfg.Cluster.Name, Interfaces: []string{}, Guard: string(cfg.Firewall.ClusterPorts)}
	for _, wg := range cfg.WireGuard {
		a.Interfaces = append(a.Interfaces, wg.Name)
	}
	in.r.Applied = a
}

func (in *inspection) readFacts() {
	if in.o.Links == nil {
		in.factErr = errors.New(why(in.o.LinksWhy))
		return
	}
	in.facts, in.factErr = in.o.Links.Facts()
}

// unitState is the unit's state as text, and whether it is known.
func (in *inspection) unitState(unit string) (systemd.State, string, bool) {
	if in.o.Units == nil {
		return systemd.State{}, "unknown: " + why(in.o.UnitsWhy), false
	}
	s, err := in.o.Units.UnitState(in.ctx, unit)
	if err != nil {
		in.unknown(unit, err.Error())
		return systemd.State{}, "unknown: " + err.Error(), false
	}
	return s, s.String(), true
}

func lastRun(st *status.Status) *LastRun {
	l := &LastRun{Command: st.Command, Outcome: st.Outcome, StartedAt: st.StartedAt, FinishedAt: st.FinishedAt, Error: st.Error, Refusals: st.Refusals, Unfinished: st.Unfinished}
	if st.Outcome == status.Failed {
		l.FailedStep = failedStep(st)
	}
	return l
}

// failedStep names the stage a failed run stopped at.
func failedStep(st *status.Status) string {
	for _, s := range st.Steps {
		if s.Outcome == status.StepFailed {
			return s.Name
		}
	}
	switch {
	case st.Validation != nil && !st.Validation.Valid:
		return "validate"
	case st.Provenance == nil || st.Provenance.Source == "":
		return "source"
	}
	return "run"
}
