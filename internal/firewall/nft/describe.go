package nft

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"

	"github.com/google/nftables"
	"github.com/google/nftables/expr"
)

// describeHash hashes the rendered rule set: the chain, the sets with their
// elements and every rule, in the normalised text form State compares. It is
// taken before the marker is set, so the marker does not hash itself.
func (rs *ruleset) describeHash() string {
	sum := sha256.Sum256([]byte(rs.describe()))
	return hex.EncodeToString(sum[:])
}

// describe prints the first chain, the sets, its rules, then every other
// chain with its rules, so a table of one chain prints as it always has.
func (rs *ruleset) describe() string {
	var b strings.Builder
	for i, c := range rs.chains {
		fmt.Fprintln(&b, describeChain(c.chain))
		if i == 0 {
			for _, s := range rs.sets {
				fmt.Fprintln(&b, describeSet(s.set, s.elems))
			}
		}
		for _, r := range c.rules {
			fmt.Fprintf(&b, "%s comment %q\n", describeRule(r.exprs), r.comment)
		}
	}
	return b.String()
}

func describeChain(c *nftables.Chain) string {
	var hook, prio, policy string
	if c.Hooknum != nil {
		hook = fmt.Sprint(*c.Hooknum)
	}
	if c.Priority != nil {
		prio = fmt.Sprint(*c.Priority)
	}
	if c.Policy != nil {
		policy = fmt.Sprint(*c.Policy)
	}
	return fmt.Sprintf("chain %s type %s hook %s priority %s policy %s", c.Name, c.Type, hook, prio, policy)
}

func describeSet(s *nftables.Set, elems []nftables.SetElement) string {
	keys := make([]string, 0, len(elems))
	for _, e := range elems {
		keys = append(keys, hex.EncodeToString(e.Key))
	}
	slices.Sort(keys) // the kernel lists elements in its own order
	return fmt.Sprintf("set %s type %s flags interval=%t constant=%t elements %s",
		s.Name, s.KeyType.Name, s.Interval, s.Constant, strings.Join(keys, ","))
}

// describeRule prints a rule's expressions with what the kernel adds or
// renumbers (counter values, set ids) left out, so a rule read back from the
// kernel prints exactly like the one that was rendered.
func describeRule(exprs []expr.Any) string {
	parts := make([]string, 0, len(exprs))
	for _, e := range exprs {
		switch v := e.(type) {
		case *expr.Counter:
			parts = append(parts, "counter")
		case *expr.Lookup:
			c := *v
			c.SetID = 0
			parts = append(parts, fmt.Sprintf("%T%+v", &c, c))
		default:
			parts = append(parts, fmt.Sprintf("%T%+v", e, e))
		}
	}
	return "rule " + strings.Join(parts, " ")
}
