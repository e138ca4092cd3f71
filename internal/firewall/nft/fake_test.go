package nft

import (
	"fmt"
	"strings"
	"syscall"

	"github.com/google/nftables"
	"github.com/google/nftables/binaryutil"
	"github.com/google/nftables/userdata"
)

// fakeConn stands in for the kernel in tests that need no root: it records
// each batch as text and applies it atomically to an in-memory ruleset, so a
// test reads what was sent and what State would see.
type fakeConn struct {
	tables   map[string]*fakeTable // by "family name"
	pending  []func(map[string]*fakeTable) error
	lines    []string
	Batches  []string // one text block per Flush, the ops in order
	FlushErr error    // returned by the next Flush, which then applies nothing
	// AfterFlush, when set, alters the committed state: a kernel that took
	// the batch but holds something else.
	AfterFlush func(tables map[string]*fakeTable)
	nextID     uint32
}

type fakeTable struct {
	table  *nftables.Table
	chains []*nftables.Chain
	sets   []*nftables.Set
	elems  map[string][]nftables.SetElement
	rules  map[string][]*nftables.Rule
}

func newFakeConn() *fakeConn { return &fakeConn{tables: map[string]*fakeTable{}} }

func key(t *nftables.Table) string { return fmt.Sprintf("%d %s", t.Family, t.Name) }

func (f *fakeConn) queue(line string, op func(map[string]*fakeTable) error) {
	f.lines = append(f.lines, line)
	f.pending = append(f.pending, op)
}

func (f *fakeConn) AddTable(t *nftables.Table) *nftables.Table {
	f.queue("add table "+key(t), func(ts map[string]*fakeTable) error {
		if ts[key(t)] == nil {
			ts[key(t)] = &fakeTable{table: t, elems: map[string][]nftables.SetElement{}, rules: map[string][]*nftables.Rule{}}
		}
		return nil
	})
	return t
}

func (f *fakeConn) DelTable(t *nftables.Table) {
	f.queue("delete table "+key(t), func(ts map[string]*fakeTable) error {
		if ts[key(t)] == nil {
			return syscall.ENOENT
		}
		delete(ts, key(t))
		return nil
	})
}

func (f *fakeConn) AddChain(c *nftables.Chain) *nftables.Chain {
	f.queue("add chain "+key(c.Table)+" "+describeChain(c), func(ts map[string]*fakeTable) error {
		ft := ts[key(c.Table)]
		if ft == nil {
			return syscall.ENOENT
		}
		for i, old := range ft.chains {
			if old.Name == c.Name {
				ft.chains[i] = c
				return nil
			}
		}
		ft.chains = append(ft.chains, c)
		return nil
	})
	return c
}

func (f *fakeConn) AddSet(s *nftables.Set, elems []nftables.SetElement) error {
	if s.ID == 0 {
		f.nextID++
		s.ID = f.nextID
	}
	f.queue("add "+describeSet(s, elems), func(ts map[string]*fakeTable) error {
		ft := ts[key(s.Table)]
		if ft == nil {
			return syscall.ENOENT
		}
		ft.sets = append(ft.sets, s)
		ft.elems[s.Name] = elems
		return nil
	})
	return nil
}

func (f *fakeConn) AddRule(r *nftables.Rule) *nftables.Rule {
	comment, _ := userdata.GetString(r.UserData, userdata.TypeComment)
	f.queue(fmt.Sprintf("add %s comment %q", describeRule(r.Exprs), comment), func(ts map[string]*fakeTable) error {
		ft := ts[key(r.Table)]
		if ft == nil {
			return syscall.ENOENT
		}
		ft.rules[r.Chain.Name] = append(ft.rules[r.Chain.Name], r)
		return nil
	})
	return r
}

func (f *fakeConn) Flush() error {
	ops, lines := f.pending, f.lines
	f.pending, f.lines = nil, nil
	if f.FlushErr != nil {
		err := f.FlushErr
		f.FlushErr = nil
		return err
	}
	next := map[string]*fakeTable{}
	for k, v := range f.tables {
		next[k] = v
	}
	for _, op := range ops {
		if err := op(next); err != nil {
			return err // the kernel commits all or nothing
		}
	}
	f.tables = next
	if f.AfterFlush != nil {
		f.AfterFlush(next)
	}
	f.Batches = append(f.Batches, strings.Join(lines, "\n"))
	return nil
}

func (f *fakeConn) ListTableOfFamily(name string, family nftables.TableFamily) (*nftables.Table, error) {
	ft := f.tables[key(&nftables.Table{Name: name, Family: family})]
	if ft == nil {
		return nil, syscall.ENOENT
	}
	t := *ft.table
	// As the kernel counts, and as the library decodes it (see tableUse).
	t.Use = binaryutil.NativeEndian.Uint32(binaryutil.BigEndian.PutUint32(uint32(len(ft.chains) + len(ft.sets))))
	return &t, nil
}

func (f *fakeConn) ListChain(t *nftables.Table, name string) (*nftables.Chain, error) {
	if ft := f.tables[key(t)]; ft != nil {
		for _, c := range ft.chains {
			if c.Name == name {
				return c, nil
			}
		}
	}
	return nil, syscall.ENOENT
}

func (f *fakeConn) GetSets(t *nftables.Table) ([]*nftables.Set, error) {
	return f.tables[key(t)].sets, nil
}

func (f *fakeConn) GetSetElements(s *nftables.Set) ([]nftables.SetElement, error) {
	return f.tables[key(s.Table)].elems[s.Name], nil
}

func (f *fakeConn) GetRules(t *nftables.Table, c *nftables.Chain) ([]*nftables.Rule, error) {
	return f.tables[key(t)].rules[c.Name], nil
}
