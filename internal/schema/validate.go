package schema

import (
	"context"
	"fmt"
	"net/netip"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/k0s"
)

// Validate checks every rule of the contract and returns all findings,
// the parse findings included, in document order. It works offline: no
// network, no filesystem, no exec.
//
// Tiers: field rules (validator tags), then rules across fields, then rules
// over the whole document. A field that did not decode is not checked again,
// nor is a document that expands past the alias budget: what it did not
// decode would read as missing.
func Validate(doc *Document, opts ...Option) Findings {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	c := &collector{doc: doc}
	c.findings = append(c.findings, doc.Findings...)
	if doc.Config != nil {
		// The one computation of the document's effective k0s
		// configuration: the rules below read it, and doc.K0s hands it to
		// the stages after validation. A document past the alias budget
		// gets one too, from what decoded: the cluster check reads it.
		eff := Effective(doc.Config)
		doc.K0s = &eff
	}
	if doc.Config == nil || doc.overBudget {
		if doc.Config == nil && doc.Shape == ShapeNone {
			c.errorf("", "the document holds no corium block: give the block at the top level, under a single corium: key, or under corium: in a #cloud-config")
		}
		c.findings.sortByPosition()
		return c.findings
	}
	c.broken = make(map[string]bool, len(doc.repeats))
	for _, p := range doc.repeats {
		c.broken[p] = true
	}
	cfg := doc.Config
	checkFields(c, cfg)
	v := &crossCheck{collector: c, cfg: cfg, eff: withDefaults(cfg), opts: o}
	v.k0s = *doc.K0s
	v.storage()
	v.join()
	v.node()
	v.ha()
	v.wireguard()
	v.overlayPrefixes()
	v.addressFamilies()
	v.firewall()
	v.secretPairs()
	v.secretSources()
	v.secretsBehindOverlay()
	v.k0sPatch()
	v.k0sEffective()
	v.cniMTU()
	v.k0sRefusals()
	if o.cmdline {
		v.cmdline()
	}
	c.findings.sortByPosition()
	return c.findings
}

// Option adds the checks of where a document is used.
type Option func(*options)

type options struct {
	cmdline bool
	// sharedVIPs are the set's virtual IPs (SharedVirtualIPs).
	sharedVIPs []netip.Addr
}

// ForCmdline adds the checks for a document carried on the kernel command
// line (corium.config=data:).
func ForCmdline() Option { return func(o *options) { o.cmdline = true } }

// crossCheck holds what rules across fields share: the config as written and
// with defaults applied.
type crossCheck struct {
	*collector
	cfg  *Config
	eff  *Config
	opts options
	// k0s is what k0s will do with the document (Effective).
	k0s k0s.Effective
	// patchRefused are the k0s.patch paths k0sEffective refused.
	patchRefused map[string]bool
	// inlineKeys are the document's inline WireGuard secrets by key, built
	// when first needed (inlineSecretKey).
	inlineKeys map[wgtypes.Key]string
	// secretFields is SecretFields(cfg), walked when first needed
	// (secrets): several rules read it, and a hub has thousands of peers.
	secretFields *[]SecretField
}

// secrets is SecretFields(v.cfg), computed once.
func (v *crossCheck) secrets() []SecretField {
	if v.secretFields == nil {
		f := SecretFields(v.cfg)
		v.secretFields = &f
	}
	return *v.secretFields
}

// Load parses, validates and applies defaults. The error is non-nil on a YAML
// syntax error (a *SyntaxError) or when any finding is an error; findings are
// returned either way so warnings can be printed.
func Load(data []byte, opts ...Option) (*Config, Findings, error) {
	t, err := ReadTree(data, false)
	if err != nil {
		return nil, nil, err
	}
	return load(t, opts)
}

func load(t *Tree, opts []Option) (*Config, Findings, error) {
	doc, fs, err := loadDocument(t, opts)
	if err != nil {
		return nil, fs, err
	}
	return doc.Config, fs, nil
}

// loadDocument validates the tree's document and applies its defaults;
// the document is nil when a finding is an error.
func loadDocument(t *Tree, opts []Option) (*Document, Findings, error) {
	doc := t.Document()
	fs := Validate(doc, opts...)
	if err := fs.Err(); err != nil {
		return nil, fs, err
	}
	ApplyDefaults(doc.Config)
	return doc, fs, nil
}

// LoadContext is Load that gives up when ctx ends, at a SIGTERM say: a
// document that takes long to check must not hold up a shutdown. The
// abandoned check runs on until the process exits; nothing reads its result.
func LoadContext(ctx context.Context, data []byte, opts ...Option) (*Config, Findings, error) {
	t, err := ReadTree(data, false)
	if err != nil {
		return nil, nil, err
	}
	doc, fs, err := LoadTree(ctx, t, opts...)
	if err != nil {
		return nil, fs, err
	}
	return doc.Config, fs, nil
}

// LoadTree is LoadContext for a document the source chain has read
// already. It returns the document: its Config with defaults applied, and
// its K0s, the effective k0s configuration validation computed, which the
// run hands on rather than computing again.
func LoadTree(ctx context.Context, t *Tree, opts ...Option) (*Document, Findings, error) {
	var (
		doc *Document
		fs  Findings
		err error
	)
	if stop := stoppable(ctx, func() { doc, fs, err = loadDocument(t, opts) }); stop != nil {
		return nil, nil, fmt.Errorf("stopped validating the configuration: %w", stop)
	}
	return doc, fs, err
}

// Check parses and validates, giving up when ctx ends (see LoadContext). The
// error is a *SyntaxError, or ctx's.
func Check(ctx context.Context, data []byte, opts ...Option) (*Document, Findings, error) {
	return CheckTree(ctx, func() (*Tree, error) { return ReadTree(data, false) }, opts...)
}

// CheckTree is Check for a reader that parsed the document already, or
// knows how: read gives its tree (source.Delivery.Tree) and runs within the
// check, so a parse it still makes gives up when ctx ends too. The error is
// read's (a *SyntaxError), or ctx's.
func CheckTree(ctx context.Context, read func() (*Tree, error), opts ...Option) (*Document, Findings, error) {
	var (
		doc *Document
		fs  Findings
		err error
	)
	stop := stoppable(ctx, func() {
		var t *Tree
		if t, err = read(); err == nil {
			doc = t.Document()
			fs = Validate(doc, opts...)
		}
	})
	if stop != nil {
		return nil, nil, fmt.Errorf("stopped validating the configuration: %w", stop)
	}
	return doc, fs, err
}

// stoppable runs f and returns ctx's error instead when ctx ends first.
func stoppable(ctx context.Context, f func()) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
