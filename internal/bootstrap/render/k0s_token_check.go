package render

import (
	"fmt"

	"github.com/corium/corium-agent/internal/schema"
)

// CheckResolvedToken holds the join token read from join.tokenFrom to the
// shape k0s reads (schema.CheckJoinToken, the rule validation holds an
// inline join.token to): a wrong file or credential is refused at boot,
// before anything is written, not when k0s starts. apply calls it with the
// resolved secrets; a plan's stand-in is no token, so plan does not.
func CheckResolvedToken(cfg *schema.Config, secrets Secrets) error {
	if cfg.Join.TokenFrom == nil {
		return nil
	}
	v, ok := secrets["join.tokenFrom"]
	if !ok {
		return nil // render refuses a token it was not given
	}
	if err := schema.CheckJoinToken(v.Reveal(), cfg.Role); err != nil {
		return fmt.Errorf("join.tokenFrom: the token read from %s %w", cfg.Join.TokenFrom.Where(), err)
	}
	return nil
}
