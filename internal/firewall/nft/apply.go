package nft

import (
	"context"
	"fmt"

	"github.com/google/nftables"
	"github.com/google/nftables/expr"
	"github.com/google/nftables/userdata"

	"github.com/corium/corium-agent/internal/firewall"
)

// Conn is the part of *nftables.Conn the guard uses: queue changes, send them
// in one batch with Flush, and read back the guard's own table.
type Conn interface {
	AddTable(*nftables.Table) *nftables.Table
	DelTable(*nftables.Table)
	AddChain(*nftables.Chain) *nftables.Chain
	AddSet(*nftables.Set, []nftables.SetElement) error
	AddRule(*nftables.Rule) *nftables.Rule
	Flush() error

	ListTableOfFamily(name string, family nftables.TableFamily) (*nftables.Table, error)
	ListChain(t *nftables.Table, name string) (*nftables.Chain, error)
	GetSets(*nftables.Table) ([]*nftables.Set, error)
	GetSetElements(*nftables.Set) ([]nftables.SetElement, error)
	GetRules(*nftables.Table, *nftables.Chain) ([]*nftables.Rule, error)
}

var _ Conn = (*nftables.Conn)(nil)

// Apply programs the guard: with it on or masquerading, the table is replaced
// as a whole; with neither, the table is removed if present. Either way it is one netlink batch,
// which the kernel commits entirely or not at all, so there is never a moment
// with half a guard or none.
func Apply(ctx context.Context, conn Conn, g firewall.Guard) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if !g.On && !g.Masquerade {
		return Remove(ctx, conn)
	}
	rs, err := buildRuleset(g)
	if err != nil {
		return fmt.Errorf("rendering the guard: %w", err)
	}
	// Add then delete then add: the first makes the delete safe when the table
	// is missing, the delete drops anything added behind the agent's back
	// (rules, chains, sets), and the table is rebuilt from scratch. Only this
	// table is named; the rest of the ruleset is never part of the batch.
	conn.AddTable(rs.table)
	conn.DelTable(rs.table)
	conn.AddTable(rs.table)
	for _, c := range rs.chains {
		conn.AddChain(c.chain)
	}
	ids := map[string]uint32{}
	for _, s := range rs.sets {
		set := *s.set
		if err := conn.AddSet(&set, s.elems); err != nil {
			return fmt.Errorf("programming set %s: %w", set.Name, err)
		}
		ids[set.Name] = set.ID
	}
	for _, c := range rs.chains {
		for _, r := range c.rules {
			conn.AddRule(&nftables.Rule{
				Table:    rs.table,
				Chain:    c.chain,
				Exprs:    withSetIDs(r.exprs, ids),
				UserData: userdata.AppendString(nil, userdata.TypeComment, r.comment),
			})
		}
	}
	if err := conn.Flush(); err != nil {
		return fmt.Errorf("programming table inet %s: %w", TableName, err)
	}
	return verify(conn, g, Current)
}

// verify reads the table back after a batch: a guard the kernel accepted but
// that does not read back as rendered is not in force, and must not be
// reported as done.
func verify(conn Conn, g firewall.Guard, want Status) error {
	r, err := State(conn, g)
	if err != nil {
		return fmt.Errorf("checking table inet %s after the batch: %w", TableName, err)
	}
	if r.Status != want {
		return fmt.Errorf("table inet %s is %s after the batch: %s", TableName, r.Status, r.Reason)
	}
	return nil
}

// withSetIDs points lookups at the sets created in the same batch, which the
// kernel resolves by id before they are committed.
func withSetIDs(exprs []expr.Any, ids map[string]uint32) []expr.Any {
	out := make([]expr.Any, len(exprs))
	for i, e := range exprs {
		if l, ok := e.(*expr.Lookup); ok {
			c := *l
			c.SetID = ids[c.SetName]
			e = &c
		}
		out[i] = e
	}
	return out
}

// Remove deletes the guard's table if it is there, in one batch; a missing
// table is not an error.
func Remove(ctx context.Context, conn Conn) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	t := table()
	conn.AddTable(t) // so the delete never fails on a missing table
	conn.DelTable(t)
	if err := conn.Flush(); err != nil {
		return fmt.Errorf("removing table inet %s: %w", TableName, err)
	}
	return verify(conn, firewall.Guard{}, Off)
}
