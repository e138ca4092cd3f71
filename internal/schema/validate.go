package schema

// Validate checks every rule of the contract and returns all findings,
// the parse findings included, in document order. It works offline: no
// network, no filesystem, no exec.
//
// Tiers: field rules (validator tags), then rules across fields, then rules
// over the whole document. A field that did not decode is not checked again.
func Validate(doc *Document) Findings {
	c := &collector{doc: doc}
	c.findings = append(c.findings, doc.Findings...)
	if doc.Config == nil {
		if doc.Shape == ShapeNone {
			c.errorf("", "the document holds no corium block: give the block at the top level, under a single corium: key, or under corium: in a #cloud-config")
		}
		c.findings.sortByPosition()
		return c.findings
	}
	c.broken = make(map[string]bool, len(doc.Findings))
	for _, f := range doc.Findings {
		c.broken[f.at] = true
	}
	cfg := doc.Config
	checkFields(c, cfg)
	v := &crossCheck{collector: c, cfg: cfg, eff: withDefaults(cfg)}
	v.storage()
	v.join()
	v.node()
	v.ha()
	v.wireguard()
	v.overlayPrefixes()
	v.firewall()
	v.secretSources()
	c.findings.sortByPosition()
	return c.findings
}

// crossCheck holds what rules across fields share: the config as written and
// with defaults applied.
type crossCheck struct {
	*collector
	cfg *Config
	eff *Config
}

// Load parses, validates and applies defaults. The error is non-nil on a YAML
// syntax error (a *SyntaxError) or when any finding is an error; findings are
// returned either way so warnings can be printed.
func Load(data []byte) (*Config, Findings, error) {
	doc, err := Parse(data)
	if err != nil {
		return nil, nil, err
	}
	fs := Validate(doc)
	if err := fs.Err(); err != nil {
		return nil, fs, err
	}
	ApplyDefaults(doc.Config)
	return doc.Config, fs, nil
}
