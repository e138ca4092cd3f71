package bootstrap

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/netip"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/wgquick"
)

// PlanReport is what apply would do under the root, found without changing
// anything and without resolving a secret.
type PlanReport struct {
	Root string `json:"root"`
	// Provisioned says the marker is there: apply itself would do nothing.
	Provisioned bool                `json:"provisioned"`
	Provenance  *status.Provenance  `json:"provenance,omitempty"`
	Validation  *status.Validation  `json:"validation,omitempty"`
	NodeAddress *status.NodeAddress `json:"nodeAddress,omitempty"`
	Hostname    *status.Hostname    `json:"hostname,omitempty"`
	Steps       []PlanStep          `json:"steps"`
	// Notes are combinations that need attention (HA, a hostname decided at
	// boot); why a node address is decided at boot is in NodeAddress.
	Notes []string `json:"notes,omitempty"`
	// Guard is the guard the plan renders, read back from its file: what
	// apply writes and corium-firewall loads at boot, not a second
	// derivation of it. Nil when the plan stopped before rendering.
	Guard *firewall.Guard `json:"guard,omitempty"`
	// Refusals are the changes apply --again would refuse.
	Refusals []string `json:"refusals,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// PlanStep is one step of the run.
type PlanStep struct {
	Name    string       `json:"name"`
	Files   []PlanFile   `json:"files,omitempty"`
	Actions []PlanAction `json:"actions,omitempty"`
}

// PlanFile is one file or link and what apply would do to it.
type PlanFile struct {
	plan.ShownFile
	// Size is the content's length in bytes (a file, not a link or a
	// removal).
	Size int `json:"size,omitempty"`
	// Secret files hold resolved secrets at apply; their secret lines are
	// masked in Diff, and their values are not compared.
	Secret bool   `json:"secret,omitempty"`
	Diff   string `json:"diff,omitempty"`
}

// PlanAction is one live action.
type PlanAction struct {
	plan.ShownAction
	// When says whether apply would perform it, and why.
	When string `json:"when"`
}

// Plan renders the first boot with placeholder secrets and compares it to
// the root. The error is non-nil when the configuration cannot be found or
// is invalid; the report says as much as is known.
func Plan(ctx context.Context, o Options) (*PlanReport, error) {
	o = o.withDefaults()
	rep := &PlanReport{Root: o.Root.Dir(), Provisioned: o.Root.Exists(status.MarkerPath), Steps: []PlanStep{}}
	err := planInto(ctx, o, rep)
	if err != nil {
		rep.Error = err.Error()
	}
	return rep, err
}

func planInto(ctx context.Context, o Options, rep *PlanReport) error {
	if o.Again && !rep.Provisioned {
		return fmt.Errorf("checking %s: node not provisioned yet; plan without --again shows the first boot", status.MarkerPath)
	}
	var t told
	d, err := decide(ctx, o, &t, func(_ context.Context, cfg *schema.Config) (render.Secrets, error) {
		return placeholderSecrets(cfg), nil
	}, planPrevious)
	rep.Provenance, rep.Validation, rep.NodeAddress, rep.Hostname, rep.Refusals = t.provenance, t.validation, t.nodeAddress, t.hostname, t.refusals
	var refused *refusedError
	switch {
	case errors.As(err, &refused):
		return fmt.Errorf("apply --again would refuse %s; it would change nothing", refused)
	case err != nil:
		return err
	case d == nil:
		rep.Notes = append(rep.Notes, "no configuration source holds a corium block: apply would leave the node unconfigured")
		return nil
	}
	if rep.Provisioned && !o.Again {
		rep.Notes = append(rep.Notes, "the node is provisioned ("+status.MarkerPath+"): apply would do nothing; below is what a first boot would do (plan --again shows an again run)")
	}
	for _, name := range d.prev.Foreign(d.cfg) {
		rep.Notes = append(rep.Notes, "wireguard "+name+": dropped from the configuration, but "+render.WireGuardConfPath(name)+" is not managed by corium-agent; it is left alone")
	}
	rep.Notes = append(rep.Notes, planNotes(d.cfg, d.facts, d.decision, d.host)...)
	return dryRun(o.Root, d, rep)
}

// dryRun is the executor of a plan: for every file, link, action and
// removal of the rendered node it says what apply would do to the root,
// changing nothing.
func dryRun(root rootfs.Root, d *decided, rep *PlanReport) error {
	cfg, p := d.cfg, d.plan
	known := knownSecretsOf(root, cfg, p, d.secrets)
	changed := map[string]bool{}
	for _, s := range p.Steps {
		ps := PlanStep{Name: s.Name}
		for _, f := range s.Files {
			if f.Path == status.DevicesPath {
				f.Content = planDevices(cfg, f.Content)
			}
			if f.Path == firewall.FilePath {
				g, err := firewall.ParseFile(f.Content)
				if err != nil {
					return fmt.Errorf("reading back the rendered guard: %w", err)
				}
				rep.Guard = &g
			}
			pf, err := planFile(root, f, known)
			if err != nil {
				return err
			}
			changed[f.Path] = pf.Change != string(rootfs.Unchanged)
			ps.Files = append(ps.Files, pf)
		}
		for _, l := range s.Links {
			pf := planLink(root, l)
			changed[l.Path] = pf.Change != string(rootfs.Unchanged)
			ps.Files = append(ps.Files, pf)
		}
		for _, a := range s.Actions {
			ps.Actions = append(ps.Actions, planAction(root, cfg, a, changed))
		}
		for _, r := range s.Removes {
			if root.Exists(r) {
				changed[r] = true
				ps.Files = append(ps.Files, PlanFile{ShownFile: plan.Removed(r)})
			}
		}
		rep.Steps = append(rep.Steps, ps)
	}
	return nil
}

// knownSecrets are the secret values a plan can know of, every spelling of
// each (secretForms), to mask wherever they show: the document's inline
// secrets, the placeholders standing in for the rest, and the values the
// Secret files hold, in the render and on disk. A plan resolves no secret,
// so what a SecretSource gave an earlier apply is known only from the 0600
// files that apply wrote: the old k0s.yaml's authPass, the old wg-quick
// files' keys, the old join token.
type knownSecrets struct {
	values       []string
	placeholders []string // the values that are not the real ones
	// unreadable are the Secret files whose text on disk does not parse,
	// so their values cannot be known: they are hidden as a whole.
	unreadable map[string]bool
}

func knownSecretsOf(root rootfs.Root, cfg *schema.Config, p *plan.Plan, placeholders render.Secrets) knownSecrets {
	k := knownSecrets{unreadable: map[string]bool{}}
	seen := map[string]bool{}
	add := func(v string) {
		for _, f := range secretForms(v) {
			if !seen[f] {
				seen[f] = true
				k.values = append(k.values, f)
			}
		}
	}
	for _, f := range schema.SecretFields(cfg) {
		if f.Inline != nil && !f.Inline.IsZero() {
			add(f.Inline.Reveal())
		}
	}
	for _, v := range placeholders {
		k.placeholders = append(k.placeholders, v.Reveal())
		add(v.Reveal())
	}
	for _, s := range p.Steps {
		for _, f := range s.Files {
			if !f.Secret {
				continue
			}
			values, _ := secretsIn(f, string(f.Content))
			if old, err := root.ReadFile(f.Path); err == nil {
				found, ok := secretsIn(f, string(old))
				k.unreadable[f.Path] = !ok
				values = append(values, found...)
			}
			for _, v := range values {
				add(v)
			}
		}
	}
	return k
}

// planFile says what apply would do to f and shows the change as a diff in
// which no secret appears: every known secret value is masked on both sides
// (see shownText), the values of its secret keys too, and a file that is
// secret as a whole, or whose secrets on disk cannot be read, is compared
// but never shown.
func planFile(root rootfs.Root, f plan.File, known knownSecrets) (PlanFile, error) {
	pf := PlanFile{ShownFile: f.Shown(""), Size: len(f.Content), Secret: f.Secret}
	old, err := root.ReadFile(f.Path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return pf, fmt.Errorf("reading %s: %w", f.Path, err)
	}
	oldText, oldWhole := shownText(f, old, known.values)
	newText, newWhole := shownText(f, f.Content, known.values)
	whole := (f.Secret && len(f.SecretKeys) == 0) || known.unreadable[f.Path] || oldWhole || newWhole
	// A placeholder is not the value apply writes, so the bytes say
	// nothing about the change; the masked text and the mode do.
	comparable := !containsAny(string(f.Content), known.placeholders)
	switch {
	case !exists:
		pf.Change = string(rootfs.Created)
	case whole && !comparable:
		pf.Change = "unknown (secret; resolved at apply)"
		return pf, nil
	default:
		same := oldText == newText
		if comparable {
			same = string(old) == string(f.Content)
		}
		info, _ := root.Lstat(f.Path)
		if same && info != nil && info.Mode().Perm() == f.Mode.Perm() {
			pf.Change = string(rootfs.Unchanged)
			return pf, nil
		}
		pf.Change = string(rootfs.Changed)
	}
	if whole || !utf8.ValidString(oldText) || !utf8.ValidString(newText) {
		return pf, nil
	}
	switch {
	case oldText != newText:
		if pf.Diff, err = unifiedDiff(oldText, newText); err != nil {
			return pf, fmt.Errorf("%s: %w", f.Path, err)
		}
	case exists && string(old) != string(f.Content):
		pf.Diff = "~ only secret values change (not shown)\n"
	}
	return pf, nil
}

// shownText is a file's text as a plan shows it: a wg-quick file in its
// redacted typed form (wgquick: every key line, no key, whatever the file
// on disk spells), a YAML file with its secrets hidden where its nodes
// place them (k0syaml.Redact: the agent's own by type whatever the case of
// their keys, the free-text keys at any depth, in a block scalar's text
// too, as in a k0s.patch's chart values), any other text as it is; then
// every known secret value is masked wherever it shows (secret.MaskValues),
// the belt under what no syntax places. whole is true when the text must
// be hidden as a whole: a wg-quick file or YAML file that does not parse.
func shownText(f plan.File, text []byte, values []string) (shown string, whole bool) {
	if f.Secret && len(text) > 0 {
		var err error
		switch f.SecretSyntax {
		case plan.SyntaxINI:
			var wf wgquick.File
			if wf, err = wgquick.Parse(text); err == nil {
				text = wgquick.Marshal(wf.Redacted())
			}
		case plan.SyntaxK0s, plan.SyntaxYAML:
			text, err = k0syaml.Redact(text)
		}
		if err != nil {
			return secret.Whole(), true
		}
	}
	return secret.MaskValues(string(text), values), false
}

func planLink(root rootfs.Root, l plan.Link) PlanFile {
	pf := PlanFile{ShownFile: l.Shown(string(rootfs.Created))}
	if old, err := root.Readlink(l.Path); err == nil {
		pf.Change = string(rootfs.Changed)
		if old == l.Target {
			pf.Change = string(rootfs.Unchanged)
		}
	}
	return pf
}

func planAction(root rootfs.Root, cfg *schema.Config, a plan.Action, changed map[string]bool) PlanAction {
	pa := PlanAction{ShownAction: a.Shown()}
	if a.Device != nil {
		for i, arg := range pa.Args {
			if strings.HasPrefix(arg, "publicKey=") {
				pa.Args[i] = planPublicKey(cfg, a.Device.Name, arg)
			}
		}
	}
	due := len(a.OnChange) == 0
	for _, p := range a.OnChange {
		due = due || changed[p]
	}
	switch {
	case !due:
		pa.When = "not needed: " + strings.Join(a.OnChange, ", ") + " unchanged"
	case !root.IsHost():
		pa.When = "skipped: root is " + root.Dir() + ", not the host"
	case len(a.OnChange) > 0:
		pa.When = "yes: " + strings.Join(a.OnChange, ", ") + " changes"
	default:
		pa.When = "yes"
	}
	return pa
}

// planPublicKey is the verify action's public key as a plan shows it. A key
// from a SecretSource is not resolved when planning, so the key derived from
// its placeholder would be a wrong key that looks right: the plan shows the
// publicKey the document states, which apply holds the resolved key to, or
// else names the field. An inline key is in the document, and the public
// key derived from it is the real one.
func planPublicKey(cfg *schema.Config, iface, arg string) string {
	for i, wg := range cfg.WireGuard {
		switch {
		case wg.Name != iface || wg.PrivateKeyFrom == nil:
		case wg.PublicKey != "":
			return "publicKey=" + wg.PublicKey + " (stated by wireguard[" + strconv.Itoa(i) + "].publicKey; the key from " + schema.PrivateKeyPath(i) + "From must derive it at boot)"
		default:
			return "publicKey=(derived at boot from " + schema.PrivateKeyPath(i) + "From)"
		}
	}
	return arg
}

// planNotes flags combinations an operator should know about before boot.
func planNotes(cfg *schema.Config, facts *hostfacts.Facts, d render.Decision, host render.Hostname) []string {
	var notes []string
	if host.Name == "" {
		notes = append(notes, "hostname: no node.name, and neither a hostname nor a machine-id under the root")
	}
	if cfg.HA.On() {
		vip := strings.SplitN(cfg.HA.VirtualIP, "/", 2)[0]
		if a, err := netip.ParseAddr(cfg.Cluster.Endpoint); err == nil && a.String() != vip {
			notes = append(notes, fmt.Sprintf("ha: cluster.endpoint %s is not the virtual IP %s; clients and joiners reach the API through the endpoint, so it must lead to the VIP", cfg.Cluster.Endpoint, vip))
		}
		// The agent chose the VRRP interface: say which, and why, so the
		// operator can check it against the other controllers' lists.
		if v, err := render.ChooseVRRP(cfg, facts); err == nil && v.Why != "" {
			note := "ha: " + v.Why + "; keepalived runs there"
			if v.Source.IsValid() {
				note += " and sends from " + v.Source.String()
			}
			notes = append(notes, note)
		}
	}
	return notes
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
