package nft

import (
	"testing"

	"github.com/google/nftables/expr"

	"github.com/corium/corium-agent/internal/schema"
)

// No drop of the table asks conntrack: another table can mark any packet
// notrack, and a drop that asked for "new" would let it through (the
// packets themselves are in TestGuardDropsUntracked). An accept may: the
// endpoint's rule for connections a NAT on the node redirected, which
// conntrack alone knows, admits nothing untracked (no NAT without
// conntrack), so an untracked packet falls through to the drops.
func TestNoRuleAsksConntrack(t *testing.T) {
	for _, cni := range []schema.CNI{schema.CNIKubeRouter, schema.CNICalico, schema.CNICustom} {
		for _, podCIDR := range []string{podCIDR4, podCIDR6} {
			cfg := endpointConfig(schema.RoleControllerWorker, "192.0.2.100")
			cfg.Network.CNI, cfg.Network.PodCIDR = cni, podCIDR
			g, err := renderGuard(cfg)
			if err != nil {
				t.Fatalf("%s %s: %v", cni, podCIDR, err)
			}
			rs, err := buildRuleset(g)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range rs.chains {
				for i, r := range c.rules {
					if v, ok := r.exprs[len(r.exprs)-1].(*expr.Verdict); ok && v.Kind == expr.VerdictAccept {
						continue
					}
					for _, e := range r.exprs {
						if _, ok := e.(*expr.Ct); ok {
							t.Errorf("%s %s: chain %s rule %d (%s) reads conntrack", cni, podCIDR, c.chain.Name, i+1, r.comment)
						}
					}
				}
			}
		}
	}
}
