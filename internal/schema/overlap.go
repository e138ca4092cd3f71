package schema

import (
	"net/netip"
	"sort"
)

// span is one prefix taking part in an overlap check. Spans of the same
// owner (one peer's allowedIPs, one interface's addresses) never clash with
// each other. Document order is (line, col, idx); a span without a position
// (a default) counts as the earliest.
type span struct {
	prefix    netip.Prefix // masked
	owner     int
	line, col int
	idx       int
}

func (a *span) before(b *span) bool {
	if a.line != b.line {
		return a.line < b.line
	}
	if a.col != b.col {
		return a.col < b.col
	}
	return a.idx < b.idx
}

// earliest2 keeps the earliest span, and the earliest span whose owner
// differs from it: enough to answer "earliest span not owned by X" for any X.
type earliest2 struct{ a, b *span }

func (e *earliest2) add(s *span) {
	switch {
	case s == nil:
	case e.a == nil:
		e.a = s
	case s.before(e.a):
		if s.owner != e.a.owner {
			e.b = e.a
		}
		e.a = s
	case s.owner != e.a.owner && (e.b == nil || s.before(e.b)):
		e.b = s
	}
}

func (e *earliest2) merge(o earliest2) { e.add(o.a); e.add(o.b) }

func (e *earliest2) notOwnedBy(owner int) *span {
	if e.a != nil && e.a.owner != owner {
		return e.a
	}
	return e.b
}

// group is all spans with one prefix, a node in the containment tree.
type group struct {
	prefix  netip.Prefix
	members []*span
	own     earliest2 // among members
	subtree earliest2 // among members and every prefix inside this one
}

// clashes finds, for every span that overlaps an earlier span of another
// owner, the earliest such span. Two prefixes overlap only when one contains
// the other, so after sorting by start address (shorter prefix first) the
// prefixes containing the current one are exactly a stack: a sweep in
// O(n log n + n*depth), depth at most 129 distinct prefix lengths.
func clashes(spans []span) map[int]int {
	order := make([]*span, len(spans))
	for i := range spans {
		spans[i].idx = i
		order[i] = &spans[i]
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := order[i].prefix, order[j].prefix
		if c := a.Addr().Compare(b.Addr()); c != 0 {
			return c < 0
		}
		if a.Bits() != b.Bits() {
			return a.Bits() < b.Bits()
		}
		return order[i].before(order[j])
	})
	best := make([]*span, len(spans))
	consider := func(s, other *span) {
		if other == nil || !other.before(s) {
			return
		}
		if cur := best[s.idx]; cur == nil || other.before(cur) {
			best[s.idx] = other
		}
	}
	var stack []*group
	finish := func() {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, m := range g.members {
			consider(m, g.subtree.notOwnedBy(m.owner))
		}
		if len(stack) > 0 {
			stack[len(stack)-1].subtree.merge(g.subtree)
		}
	}
	for _, s := range order {
		for len(stack) > 0 && !stack[len(stack)-1].prefix.Contains(s.prefix.Addr()) {
			finish()
		}
		if len(stack) == 0 || stack[len(stack)-1].prefix != s.prefix {
			stack = append(stack, &group{prefix: s.prefix})
		}
		top := stack[len(stack)-1]
		top.members = append(top.members, s)
		top.own.add(s)
		top.subtree.add(s)
		for _, anc := range stack[:len(stack)-1] {
			consider(s, anc.own.notOwnedBy(s.owner))
		}
	}
	for len(stack) > 0 {
		finish()
	}
	out := map[int]int{}
	for i, s := range best {
		if s != nil {
			out[i] = s.idx
		}
	}
	return out
}
