package status

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/schema"
)

// EncodeApplied is the configuration as applied: secret references as
// written (URLs without what grants access), inline secrets as [redacted],
// and so is each value inside k0s.patch a plan masks in k0s.yaml (a helm
// repository's password: k0syaml.RedactedPatch). An again run compares a
// new document with it and status reports from it.
func EncodeApplied(cfg *schema.Config) ([]byte, error) {
	if len(cfg.K0s.Patch) > 0 {
		patch, err := k0syaml.RedactedPatch(cfg.K0s.Patch)
		if err != nil {
			return nil, fmt.Errorf("encoding %s: %w", AppliedPath, err)
		}
		c := *cfg
		c.K0s.Patch = patch
		cfg = &c
	}
	var buf bytes.Buffer
	buf.WriteString(plan.Managed("#"))
	buf.WriteString("# the configuration as applied; inline secrets are redacted\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(cfg); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", AppliedPath, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding %s: %w", AppliedPath, err)
	}
	return buf.Bytes(), nil
}
