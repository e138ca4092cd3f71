package schema

import (
	"fmt"

	"github.com/corium/corium-agent/internal/k0syaml"
)

// Redacted is c as an output or a record may show it (resolve, the applied
// record): its inline secrets redact themselves when marshalled
// (secret.Value), and k0s.patch, free text to the contract, has the values
// a plan hides in k0s.yaml replaced by [redacted] (k0syaml.RedactedPatch): the
// agent's own secret fields and a helm repository's password. Only K0s is
// copied; the rest is shared with c, which is left as it was.
func (c *Config) Redacted() (*Config, error) {
	if c == nil || len(c.K0s.Patch) == 0 {
		return c, nil
	}
	patch, err := k0syaml.RedactedPatch(c.K0s.Patch)
	if err != nil {
		return nil, fmt.Errorf("k0s.patch: %w", err)
	}
	out := *c
	out.K0s.Patch = patch
	return &out, nil
}
