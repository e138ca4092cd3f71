package schema

import (
	"gopkg.in/yaml.v3"
)

// Free-form values (k0s.patch) become plain Go values, as yaml.v3 decodes
// them into an `any`, but walked here: yaml.v3's own decode compares every
// pair of a mapping's keys to find repeats, so 75,000 keys in a 1 MiB
// document took 25 seconds, and 300,000 about ten minutes. Repeats are found
// through an index instead, every value counts against the alias budget, and
// merge keys (<<) merge as YAML says: a mapping's own keys win over merged
// ones, and of several merged mappings the first wins.

func (d *decoder) freeValue(n *yaml.Node) any {
	if !d.spend(n) {
		return nil
	}
	n = resolveAlias(n)
	switch n.Kind {
	case yaml.MappingNode:
		return d.freeMapping(n)
	case yaml.SequenceNode:
		list := make([]any, len(n.Content))
		for i, item := range n.Content {
			d.at.enter(segment{index: i, kind: indexSegment})
			list[i] = d.freeValue(item)
			d.at.leave()
		}
		return list
	}
	var v any
	if err := n.Decode(&v); err != nil {
		d.errorf(n, "is not a value YAML can read (a tag that does not fit it?)")
		return nil
	}
	return v
}

func (d *decoder) freeMapping(n *yaml.Node) map[string]any {
	m := make(map[string]any, len(n.Content)/2)
	dups := newDuplicates(n)
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content) && !d.spent; i += 2 {
		k, val := resolveAlias(n.Content[i]), n.Content[i+1]
		if isMergeKey(k) {
			merged = append(merged, val)
			continue
		}
		first := dups.firstLine(i)
		if first > 0 && !d.spend(k) {
			return m
		}
		d.at.enter(segment{name: k.Value, kind: keySegment})
		if first > 0 {
			d.errorf(k, "duplicate key; first given on line %d", first)
		} else {
			m[k.Value] = d.freeValue(val)
		}
		d.at.leave()
	}
	for _, src := range merged {
		for _, s := range d.mergeSources(src) {
			for k, v := range d.freeMapping(s) {
				if _, ok := m[k]; !ok {
					m[k] = v
				}
			}
		}
	}
	return m
}
