package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
)

// Options configure one run.
type Options struct {
	Root rootfs.Root
	// ConfigFile replaces the source chain (a host path).
	ConfigFile string
	// FactsFile is the host's network as JSON (a host path), for a root
	// other than "/"; ignored when GatherFacts is set.
	FactsFile string
	// Again is an again run (apply --again): converge a provisioned node.
	Again bool
	// Fetch fetches config URLs; nil means fetch.New() when needed.
	Fetch *fetch.Client
	// Resolver resolves SecretSources.
	Resolver SecretResolver
	// Live performs live actions; nil lists them as skipped.
	Live apply.Live
	// LiveUnderRoot hands live actions to Live under any root (tests).
	LiveUnderRoot bool
	// GatherFacts reads the live host's network, once, before anything is
	// written, with the routes to the addresses given (hostfacts.RouteTargets);
	// nil offline.
	GatherFacts func(endpoints []netip.Addr) (*hostfacts.Facts, error)
	// AfterWrite runs after each file write; an error stops the run there.
	AfterWrite func(path string) error
	// Notify reports progress to the service manager (sd_notify STATUS).
	Notify func(status string)
	Log    *slog.Logger
}

// withDefaults fills in what a caller may leave out: a log that discards,
// no service manager to tell.
func (o Options) withDefaults() Options {
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	if o.Notify == nil {
		o.Notify = func(string) {}
	}
	return o
}

// Run is one agent run. It always returns a status (also on failure); the
// caller writes it with store.Write. The error is non-nil when the run
// failed or refused.
func Run(ctx context.Context, o Options) (*status.Status, error) {
	o = o.withDefaults()
	st := &status.Status{Command: "apply", Root: o.Root.Dir(), StartedAt: time.Now().UTC()}
	if o.Again {
		st.Command = "apply --again"
	}
	st.Unfinished = unfinishedRun(o)
	err := run(ctx, o, st)
	st.FinishedAt = time.Now().UTC()
	if err != nil {
		st.Error = err.Error()
		if st.Outcome == "" {
			st.Outcome = status.Failed
		}
		// The error itself is the caller's to say, once (apply's last
		// line): the log says how the run ended.
		o.Log.Error("run ended", "outcome", string(st.Outcome))
	} else {
		o.Log.Info("run ended", "outcome", string(st.Outcome))
	}
	return st, err
}

func run(ctx context.Context, o Options, st *status.Status) (err error) {
	provisioned := o.Root.Exists(status.MarkerPath)
	switch {
	case provisioned && !o.Again:
		st.Outcome = status.NothingToDo
		o.Log.Info("node already provisioned; nothing to do (apply --again converges a provisioned node)", "marker", status.MarkerPath)
		// A first boot cut between its marker and the removal of its
		// record left the record behind; the marker says it finished.
		if u, _ := store.ReadUnfinished(o.Root); u != nil && u.Command == "apply" {
			return store.EndRun(o.Root)
		}
		return nil
	case !provisioned && o.Again:
		return fmt.Errorf("checking %s: node not provisioned yet; run apply without --again", status.MarkerPath)
	}

	var t told
	d, err := decide(ctx, o, &t, func(ctx context.Context, cfg *schema.Config) (render.Secrets, error) {
		secrets, err := resolveSecrets(ctx, o.Resolver, cfg)
		if err != nil {
			return nil, err
		}
		// A stated publicKey is checked against the key the node was given,
		// before anything is written.
		if err := render.CheckResolvedKeys(cfg, secrets); err != nil {
			return nil, err
		}
		if err := render.CheckResolvedToken(cfg, secrets); err != nil {
			return nil, err
		}
		return secrets, nil
	}, nil)
	st.Provenance, st.Validation, st.NodeAddress, st.Hostname, st.Refusals = t.provenance, t.validation, t.nodeAddress, t.hostname, t.refusals
	st.Steps = append(st.Steps, t.steps...)
	var refused *refusedError
	switch {
	case errors.As(err, &refused):
		st.Outcome = status.Refused
		return fmt.Errorf("apply --again refuses %s; nothing was changed", refused)
	case err != nil:
		return err
	case d == nil:
		st.Outcome = status.Unconfigured
		o.Log.Info("no configuration found; the node stays unconfigured")
		return nil
	}
	for _, w := range d.findings.Warnings().Shown() {
		o.Log.Warn("configuration warning", "finding", w.String())
	}
	for _, name := range d.prev.Foreign(d.cfg) {
		o.Log.Warn("interface dropped from the configuration left alone: its file is not managed by corium-agent", "file", render.WireGuardConfPath(name))
	}

	o.Notify("bringing the overlay up and configuring k0s")
	if err := store.BeginRun(o.Root, st.Command, st.StartedAt); err != nil {
		return err
	}
	// The record goes when this run ends, whatever its outcome; a run that
	// ends before changing anything leaves an earlier run's record, since
	// what that run left half done is still on disk.
	defer func() {
		if endErr := store.EndRun(o.Root); endErr != nil && err == nil {
			err = endErr
		}
	}()
	exec := &apply.Executor{Root: o.Root, Live: o.Live, LiveUnderRoot: o.LiveUnderRoot, Log: o.Log, AfterWrite: o.AfterWrite}
	steps, err := exec.Apply(ctx, d.plan)
	st.Steps = append(st.Steps, steps...)
	if err != nil {
		if startFailed(steps) {
			return withdrawMarker(o.Root, err)
		}
		return err
	}
	st.Outcome = status.Provisioned
	if o.Again {
		st.Outcome = status.Converged
	}
	o.Notify(string(st.Outcome))
	return nil
}

// unfinishedRun is the earlier run that began to change the node and never
// ended, said in the log at once: what this run finds on disk may be that
// run's half.
func unfinishedRun(o Options) *status.Unfinished {
	u, err := store.ReadUnfinished(o.Root)
	if err != nil {
		o.Log.Warn("the record of an earlier run could not be read", "error", err.Error())
		return nil
	}
	if u != nil && u.Command == "apply" && o.Root.Exists(status.MarkerPath) {
		// The first boot's marker is its last write: that run finished,
		// and was cut only before it could remove its record.
		return nil
	}
	if u != nil {
		o.Log.Warn("an earlier run did not finish", "run", u.Line())
	}
	return u
}

// ChecksFor is the checks a document's way in adds: an inline secret in a
// document on the kernel command line is readable by every user.
func ChecksFor(res *chain.Result) []schema.Option {
	if res.OnCmdline {
		return []schema.Option{schema.ForCmdline()}
	}
	return nil
}

func timedStep(name string, start time.Time, err error) status.Step {
	s := status.Step{Name: name, Outcome: status.StepDone, DurationMS: time.Since(start).Milliseconds()}
	if err != nil {
		s.Outcome, s.Error = status.StepFailed, err.Error()
	}
	return s
}

func provenance(res *chain.Result) *status.Provenance {
	p := &status.Provenance{Source: res.Source, Tried: []status.Attempt{}, Pin: res.Pin}
	for _, a := range res.Tried {
		p.Tried = append(p.Tried, status.Attempt{Source: a.Source, Outcome: string(a.Outcome), Reason: a.Reason})
	}
	return p
}

// validation is what the status file records of the check: at most
// schema.MaxShown errors and as many warnings, as Shown cuts them.
func validation(fs schema.Findings, err error) *status.Validation {
	v := &status.Validation{Valid: err == nil, Errors: fs.Errors().Shown(), Warnings: fs.Warnings().Shown()}
	var syn *schema.SyntaxError
	if errors.As(err, &syn) {
		v.Errors = append(v.Errors, finding.Finding{Line: syn.Line, Col: syn.Col, Severity: finding.Error, Message: syn.Error()})
	}
	return v
}

// HostFacts reads the live host's network, with the routes to cfg's peer
// endpoints and unicast VRRP peers, or the --facts file under a root that
// is not the host; without either there are no facts. The facts command
// prints what it reads, so a --facts file is what apply would gather.
func HostFacts(o Options, cfg *schema.Config) (*hostfacts.Facts, error) {
	if o.GatherFacts != nil {
		facts, err := o.GatherFacts(hostfacts.RouteTargets(cfg))
		if err != nil {
			return nil, fmt.Errorf("reading the host's addresses and routes: %w", err)
		}
		return facts, nil
	}
	return ReadFacts(o.FactsFile)
}

// startFailed says the run failed at queueing the k0s start, the one step
// after the marker.
func startFailed(steps []status.Step) bool {
	for _, s := range steps {
		if s.Name == render.StepStart && s.Outcome == status.StepFailed {
			return true
		}
	}
	return false
}

// withdrawMarker removes the marker a run wrote just before its k0s start
// could not be queued: the node is not running k0s, so it must not say
// provisioned, and the next boot runs the agent again.
func withdrawMarker(root rootfs.Root, cause error) error {
	if _, err := root.Remove(status.MarkerPath); err != nil {
		return errors.Join(cause, fmt.Errorf("withdrawing the marker after the failed k0s start: %w; remove %s by hand", err, status.MarkerPath))
	}
	return cause
}
