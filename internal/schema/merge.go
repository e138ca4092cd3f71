package schema

import "gopkg.in/yaml.v3"

// Merge keys (<<: *common) are how operators share settings between peers
// or interfaces: YAML's merge key type, which yaml.v3 keeps in the tree as a
// key tagged !!merge rather than expanding it. The decoder and Position
// expand them the same way, so a merged field decodes and is placed at its
// line in the mapping merged.

// isMergeKey says k is a merge key: an unquoted << (yaml.v3 tags it
// !!merge; a quoted "<<" is an ordinary key).
func isMergeKey(k *yaml.Node) bool { return k.ShortTag() == "!!merge" }

// mergeSources are the mappings a merge key's value merges, in order: a
// mapping, or a list of them. Anything else is a finding; nil then.
//
// A merge expands what it names as an alias does, so it is charged to the
// same budget: each mapping it takes here, each pair of them as the pairs
// are visited. It arms the budget itself, since <<: [*a, *a] decodes no
// alias.
func (d *decoder) mergeSources(src *yaml.Node) []*yaml.Node {
	d.arm()
	if !d.spend(src) {
		return nil
	}
	ms := mergedMappings(src, func(bad *yaml.Node) {
		d.errorf(bad, "a merge key (<<) takes a mapping or a list of mappings")
	})
	for _, m := range ms {
		if !d.spend(m) {
			return nil
		}
	}
	return ms
}

// mergedMappings resolves a merge key's value to its mappings; bad is
// called, and nil returned, for a value that is not one.
func mergedMappings(src *yaml.Node, bad func(*yaml.Node)) []*yaml.Node {
	src = resolveAlias(src)
	switch src.Kind {
	case yaml.MappingNode:
		return []*yaml.Node{src}
	case yaml.SequenceNode:
		out := make([]*yaml.Node, 0, len(src.Content))
		for _, s := range src.Content {
			if s = resolveAlias(s); s.Kind != yaml.MappingNode {
				bad(s)
				return nil
			}
			out = append(out, s)
		}
		return out
	}
	bad(src)
	return nil
}
