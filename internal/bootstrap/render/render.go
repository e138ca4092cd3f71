package render

import (
	"errors"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/status"
)

// Step names after the overlay, in the order they run.
const (
	StepHostname = "hostname"
	StepK0s      = "k0s"
	StepGuard    = "guard"
	StepInstall  = "install"
	StepRecord   = "record"
	StepMarker   = "marker"
	StepStart    = "start"
)

// Inputs is everything Render needs. Render reads nothing else.
type Inputs struct {
	// Config is validated, with defaults applied.
	Config *schema.Config
	// K0s is Config's effective k0s configuration, computed once for the
	// document (schema.Document.K0s): the k0s.yaml and the guard are
	// rendered from it. Render refuses the zero value.
	K0s k0s.Effective
	// Secrets holds the resolved secrets by field path (see Secrets).
	Secrets Secrets
	// Decision is the node address, decided once by SelectNodeAddress.
	Decision Decision
	// Facts is the host's network (nil offline without --facts).
	Facts *hostfacts.Facts
	// Hostname is the hostname decision.
	Hostname Hostname
	// K0sUnitExists says a k0s unit from an earlier, unfinished run is on disk.
	K0sUnitExists bool
	// Again leaves out what only the first boot does (install, start, marker).
	Again bool
	// Previous is what the last run applied, on an again run (nil on a first
	// boot): it decides reload or restart, and which interfaces go.
	Previous *Previous
	// WgQuickLinks are the enable links of each wg-quick@ unit by unit
	// name, read from the template under the root (ondisk.ReadWgQuickLinks); a
	// unit without an entry gets the multi-user.target link.
	WgQuickLinks map[string][]plan.Link
}

// Render is the whole run as a plan: the unit files and their reload, the
// overlay, then everything that depends on the node address.
func Render(in Inputs) (*plan.Plan, error) {
	rest, guardOn, err := renderNode(in)
	if err != nil {
		return nil, err
	}
	units, err := RenderUnits(in, guardOn)
	if err != nil {
		return nil, err
	}
	overlay, err := RenderOverlay(in)
	if err != nil {
		return nil, err
	}
	steps := append(units, overlay...)
	return &plan.Plan{Steps: append(steps, rest.Steps...)}, nil
}

// RenderNode is the part of the plan after the overlay: the hostname, the
// k0s files, the guard, the install and the records.
func RenderNode(in Inputs) (*plan.Plan, error) {
	plan, _, err := renderNode(in)
	return plan, err
}

// renderNode is RenderNode, and whether the guard is on, which decides the
// k0s unit's drop-in on the guard (RenderUnits).
func renderNode(in Inputs) (*plan.Plan, bool, error) {
	cfg := in.Config
	if in.K0s.Config == nil {
		// Computing it here would be a second owner of the value the run
		// validated and decided the node address with.
		return nil, false, errors.New("no effective k0s configuration to render from; hand in the document's (schema.Document.K0s)")
	}
	addr, second := "", ""
	if in.Decision.Address.IsValid() {
		addr = in.Decision.Address.String()
	}
	if in.Decision.Second.IsValid() {
		second = in.Decision.Second.String()
	}
	var steps []plan.Step

	host := plan.Step{Name: StepHostname}
	if in.Hostname.Name != "" {
		host.Files = append(host.Files, plan.File{Path: HostnamePath, Mode: 0o644, Content: []byte(in.Hostname.Name + "\n")})
		host.Actions = append(host.Actions, plan.Action{Kind: plan.ActionHostname, Args: []string{in.Hostname.Name}, OnChange: onChangeAgain(in.Again, HostnamePath)})
	}
	steps = append(steps, host)

	k0s := plan.Step{Name: StepK0s}
	if cfg.Role.IsController() {
		secrets := ConfiguredSecrets(cfg, in.Secrets)
		authPass := secrets[schema.AuthPassPath]
		if cfg.HA.On() && authPass.IsZero() {
			return nil, false, errors.New("ha.authPassFrom: no resolved password; resolve secrets before rendering")
		}
		vrrp, err := checkCPLB(cfg, authPass, in.Facts)
		if err != nil {
			return nil, false, err
		}
		overlayMTU, err := nodeAddressMTU(in)
		if err != nil {
			return nil, false, err
		}
		if err := checkCNIMTU(in, addr); err != nil {
			return nil, false, err
		}
		if err := checkKineDataSource(cfg, secrets); err != nil {
			return nil, false, err
		}
		conf, err := RenderK0sConfig(cfg, in.K0s, K0sInputs{NodeAddress: addr, SecondAddress: second, Secrets: secrets, VRRP: vrrp, OverlayMTU: overlayMTU})
		if err != nil {
			return nil, false, err
		}
		k0s.Files = append(k0s.Files, plan.File{Path: K0sConfigPath, Mode: 0o600, DirMode: 0o700, Content: conf, Secret: true, SecretKeys: k0syaml.FreeTextSecretKeys, SecretSyntax: plan.SyntaxK0s})
	}
	token := configuredSecret(in.Secrets, "join.token", cfg.Join.Token, cfg.Join.TokenFrom != nil)
	hasToken := !token.IsZero()
	if cfg.Join.TokenFrom != nil && !hasToken {
		return nil, false, errors.New("join.tokenFrom: no resolved token; resolve secrets before rendering")
	}
	if hasToken {
		k0s.Files = append(k0s.Files, plan.File{Path: JoinTokenPath, Mode: 0o600, DirMode: 0o700, Content: k0syaml.TokenFile{Token: token}.Marshal(), Secret: true})
	}
	steps = append(steps, k0s)

	unit := K0sUnit(cfg.Role)
	guard, err := firewall.Render(cfg, in.K0s)
	if err != nil {
		return nil, false, err
	}
	guardStep := plan.Step{
		Name:    StepGuard,
		Files:   []plan.File{{Path: firewall.FilePath, Mode: firewall.FileMode, DirMode: firewall.DirMode, Content: guard.File()}},
		Actions: []plan.Action{{Kind: plan.ActionFirewall, OnChange: onChangeAgain(in.Again, firewall.FilePath)}},
	}
	// The file is rendered whatever the guard: the boot unit programs the
	// table it describes (the guard, the pod masquerade, or both) or removes
	// a stale one. k0s requires the table only when the guard is on: with
	// the masquerade alone, a table that failed to load cuts pods off from
	// other nodes' addresses, which status reports, but opens no port, and
	// holding k0s back for it would take the node's control plane down too
	// (the drop-in requiring it is RenderUnits').
	steps = append(steps, guardStep)

	args := K0sInstallArgs(cfg, K0sInstall{NodeAddress: addr, SecondAddress: second, HasToken: hasToken, UnitExists: in.K0sUnitExists})
	if err := checkWithK0s(args, k0sConfigOf(k0s)); err != nil {
		return nil, false, err
	}
	if !in.Again {
		// `k0s install` writes the unit, enables it and reloads systemd
		// itself (its service library runs `systemctl enable` and
		// `systemctl daemon-reload`), after every drop-in is on disk: no
		// reload of the agent's follows.
		steps = append(steps, plan.Step{Name: StepInstall, Actions: []plan.Action{{Kind: plan.ActionK0sInstall, Unit: unit, Args: args}}})
	}

	applied, err := status.EncodeApplied(cfg)
	if err != nil {
		return nil, false, err
	}
	records := plan.Step{Name: StepRecord, Files: []plan.File{{Path: status.AppliedPath, Mode: 0o600, DirMode: 0o700, Content: applied}}}
	if in.Decision.Address.IsValid() && !in.Again {
		records.Files = append(records.Files, plan.File{Path: status.NodeAddressPath, Mode: 0o600, DirMode: 0o700, Content: status.EncodeNodeAddress(in.Decision.Address)})
	}
	steps = append(steps, records)
	if !in.Again {
		// The marker comes before the k0s start, and the start is the very
		// last thing the run does. A queued start job is only ordered
		// After= the agent, so it runs when the agent's unit ends, failed
		// or not: queued before the marker, a run dying in between would
		// let k0s start on a node that is not provisioned. With the marker
		// first, a run dying before the start leaves a complete node whose
		// enabled k0s unit starts at the next boot; a start that cannot be
		// queued takes the marker back (see bootstrap), so the next boot
		// runs the agent again. The k0s unit's drop-in also makes the
		// marker a condition of starting k0s at all.
		steps = append(steps,
			plan.Step{Name: StepMarker, Files: []plan.File{{Path: status.MarkerPath, Mode: 0o644, DirMode: 0o700, Content: status.Marker()}}},
			// Queued, not waited for: the k0s unit is ordered after the
			// agent, so waiting here would wait for ourselves.
			plan.Step{Name: StepStart, Actions: []plan.Action{{Kind: plan.ActionQueueStart, Unit: unit}}},
		)
	}
	return &plan.Plan{Steps: steps}, guard.On, nil
}

// onChangeAgain makes an action conditional on an again run only: the
// first boot always performs it (kernel state is not on disk), an again run only when
// its file changed.
func onChangeAgain(again bool, paths ...string) []string {
	if again {
		return paths
	}
	return nil
}

// configuredSecret is the value of a secret field the config sets, inline
// or through its "From" source; zero when the config sets neither.
func configuredSecret(secrets Secrets, path string, inline *secret.Value, hasFrom bool) secret.Value {
	if inline == nil && !hasFrom {
		return secret.Value{}
	}
	v, _ := lookupSecret(secrets, path, inline)
	return v
}
