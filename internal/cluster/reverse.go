package cluster

import (
	"cmp"
	"slices"
)

// entryFor is f's first entry that intends o, nil when none does. reverse
// asks it of every entry of the set: a scan of f's entries made the check of
// a full mesh cubic in its nodes, so they are sorted once by the interface
// they intend (stably: the first in the file stays first) and searched.
// Sorted on first use, which is after match set what each entry intends.
func (f *iface) entryFor(o *iface) *entry {
	if f.byIntent == nil {
		f.byIntent = slices.Clone(f.peers)
		slices.SortStableFunc(f.byIntent, func(a, b *entry) int { return compareIfaces(a.intends(), b.intends()) })
	}
	i, found := slices.BinarySearchFunc(f.byIntent, o, func(e *entry, o *iface) int { return compareIfaces(e.intends(), o) })
	if !found {
		return nil
	}
	return f.byIntent[i]
}

// compareIfaces orders interfaces as the set lists them, nil first.
func compareIfaces(a, b *iface) int {
	switch {
	case a == b:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	return cmp.Or(cmp.Compare(a.n.order, b.n.order), cmp.Compare(a.i, b.i))
}
