package status

import (
	"bytes"
	"fmt"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
)

// EncodeApplied is the configuration as applied: secret references as
// written (URLs without what grants access), inline secrets and the
// secrets in k0s.patch as [redacted] (schema.Config.Redacted). An again
// run compares a new document with it and status reports from it.
func EncodeApplied(cfg *schema.Config) ([]byte, error) {
	cfg, err := cfg.Redacted()
	if err != nil {
		return nil, fmt.Errorf("encoding %s: %w", AppliedPath, err)
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
