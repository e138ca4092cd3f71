package bootstrap

import (
	"context"
	"fmt"
	"path"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/ondisk"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/systemd"
)

// decided is what a run decides before it touches anything: the document,
// the host as it is, an again run's baseline, the node address, the hostname,
// and the whole node rendered and checked. apply carries the plan out; plan
// compares it with the root. Both come through decide, so they cannot drift.
type decided struct {
	res *chain.Result
	cfg *schema.Config
	// k0s is cfg's effective k0s configuration, as validation computed it:
	// the node address, the k0s.yaml and the guard are decided from it.
	k0s      k0s.Effective
	findings schema.Findings
	facts    *hostfacts.Facts
	prev     *render.Previous
	decision render.Decision
	host     render.Hostname
	secrets  render.Secrets
	plan     *plan.Plan
}

// told is what the sequence reports on the way, kept also when it stops
// halfway: the status file of apply and the report of plan show it.
type told struct {
	provenance  *status.Provenance
	validation  *status.Validation
	nodeAddress *status.NodeAddress
	hostname    *status.Hostname
	refusals    []string
	steps       []status.Step
}

// secretsFor supplies the secrets: resolved at apply, stand-ins in a plan.
type secretsFor func(ctx context.Context, cfg *schema.Config) (render.Secrets, error)

// refusedError is an again run asked to change what a joined node cannot take.
type refusedError struct{ refusals []string }

func (e *refusedError) Error() string {
	return "changes a joined node cannot take (" + joinFields(e.refusals) + ")"
}

// decide runs the sequence up to the first write. A nil result with a nil
// error is a node no source configures. previous, when set, is what render
// is handed of the last run in place of what is on disk (a plan's
// planPrevious).
func decide(ctx context.Context, o Options, t *told, secrets secretsFor, previous func(*render.Previous, *schema.Config) *render.Previous) (*decided, error) {
	o.Notify("finding the configuration")
	res, err := chain.Find(ctx, chain.Options{Root: o.Root, ConfigFile: o.ConfigFile, Fetch: o.Fetch, Logger: o.Log})
	if res != nil {
		t.provenance = provenance(res)
	}
	if err != nil {
		return nil, err
	}
	if res.Source == "" {
		return nil, nil
	}

	o.Notify("validating the configuration")
	doc, findings, err := schema.LoadTree(ctx, res.Tree, ChecksFor(res)...)
	t.validation = validation(findings, err)
	if err != nil {
		return nil, fmt.Errorf("validating the configuration: %w", err)
	}
	cfg := doc.Config
	d := &decided{res: res, cfg: cfg, k0s: *doc.K0s, findings: findings}

	// The host's network is read once, before anything changes it: the
	// routes to the peers (the overlay's MTU), the default route (the node
	// address when none is marked), the VRRP interface's addresses.
	if d.facts, err = HostFacts(o, cfg); err != nil {
		return nil, err
	}

	if o.Again {
		var refusals []string
		if applied, err := readApplied(o.Root); err != nil {
			refusals = []string{err.Error()}
		} else {
			refusals = refuseAgain(o.Root, applied, cfg, d.k0s, d.facts)
			d.prev = ondisk.ReadPrevious(o.Root, applied)
		}
		if len(refusals) > 0 {
			t.refusals = refusals
			return nil, &refusedError{refusals}
		}
	}

	o.Notify("resolving secrets")
	start := time.Now()
	d.secrets, err = secrets(ctx, cfg)
	t.steps = append(t.steps, timedStep("secrets", start, err))
	if err != nil {
		return nil, err
	}

	// Everything is rendered, and so checked, before the first write: a
	// node that cannot come up right refuses with nothing touched.
	d.decision, err = decideNodeAddress(cfg, d.k0s, d.facts)
	t.nodeAddress = d.decision.Status()
	o.Log.Info("node address", "address", t.nodeAddress.Address, "how", d.decision.Source, "reason", d.decision.Reason)
	if err != nil {
		return nil, err
	}
	d.host = render.DecideHostname(cfg, ReadHostnameFacts(o.Root))
	t.hostname = &status.Hostname{Name: d.host.Name, Source: d.host.Source}
	links, err := ondisk.ReadWgQuickLinks(o.Root, cfg, d.prev)
	if err != nil {
		return nil, err
	}
	prev := d.prev
	if previous != nil {
		prev = previous(d.prev, cfg)
	}
	d.plan, err = renderNode(render.Inputs{
		Config:        cfg,
		K0s:           d.k0s,
		Secrets:       d.secrets,
		Decision:      d.decision,
		Facts:         d.facts,
		Hostname:      d.host,
		K0sUnitExists: o.Root.Exists(path.Join(systemd.UnitDir, render.K0sUnit(cfg.Role))),
		Again:         o.Again,
		Previous:      prev,
		WgQuickLinks:  links,
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// decideNodeAddress picks the node address from the document and the
// host's facts; a node on an overlay that cannot have one is refused.
func decideNodeAddress(cfg *schema.Config, eff k0s.Effective, facts *hostfacts.Facts) (render.Decision, error) {
	dec := render.SelectNodeAddress(cfg, eff, facts)
	if dec.Refused || (dec.Source == render.SourceNone && render.OverlayOfNodeAddress(cfg) != nil) {
		return dec, fmt.Errorf("deciding the node address: %s", dec.Reason)
	}
	return dec, nil
}

// renderNode renders the whole node, and so checks it.
func renderNode(in render.Inputs) (*plan.Plan, error) {
	p, err := render.Render(in)
	if err != nil {
		return nil, fmt.Errorf("rendering the node: %w", err)
	}
	return p, nil
}

// CheckWithFacts runs on a valid document what plan and apply refuse of it
// on a host with these facts, the way they run it on a fresh root: the node
// address decided, and the node rendered with stand-in secrets (the checks
// that need a resolved secret are apply's alone). The error is plan's own,
// word for word, so validate --facts says what plan would.
func CheckWithFacts(cfg *schema.Config, eff k0s.Effective, facts *hostfacts.Facts) error {
	dec, err := decideNodeAddress(cfg, eff, facts)
	if err != nil {
		return err
	}
	_, err = renderNode(render.Inputs{
		Config:   cfg,
		K0s:      eff,
		Secrets:  placeholderSecrets(cfg),
		Decision: dec,
		Facts:    facts,
		Hostname: render.DecideHostname(cfg, render.HostnameFacts{}),
	})
	return err
}
