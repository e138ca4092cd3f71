package schema

import (
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Position returns the line and column of path, or of its nearest enclosing
// field that has one (a missing field is placed at its parent).
//
// Positions are looked up in the parsed tree only when a finding needs one,
// so a valid document never pays for indexing every field.
func (doc *Document) Position(path string) (line, col int) {
	doc.restore()
	if doc == nil || doc.block == nil {
		return 0, 0
	}
	for p := path; ; p = parentPath(p) {
		if n := doc.lookup(doc.block, p); n != nil {
			return n.Line, n.Column
		}
		if p == "" {
			return 0, 0
		}
	}
}

// lookup finds the node a field path names: name and .name step into a
// mapping, [i] into a list (a single value stands for a one-item list, as
// AddressList decodes it), ["key"] to a free-form key's value, and a final
// #key to the key itself. The first of duplicate keys wins, as in decoding.
func (doc *Document) lookup(n *yaml.Node, path string) *yaml.Node {
	wantKey := strings.HasSuffix(path, keySuffix)
	path = strings.TrimSuffix(path, keySuffix)
	for path != "" {
		n = resolveAlias(n)
		var key *yaml.Node
		switch {
		case strings.HasPrefix(path, `["`):
			quoted, err := strconv.QuotedPrefix(path[1:])
			if err != nil || !strings.HasPrefix(path[1+len(quoted):], "]") {
				return nil
			}
			name, _ := strconv.Unquote(quoted)
			key, n = doc.mappingEntry(n, name)
			path = path[len(quoted)+2:]
		case path[0] == '[':
			end := strings.IndexByte(path, ']')
			i, err := strconv.Atoi(path[1:max(end, 1)])
			if end < 0 || err != nil {
				return nil
			}
			n = listItem(n, i)
			path = path[end+1:]
		default:
			path = strings.TrimPrefix(path, ".")
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			key, n = doc.mappingEntry(n, path[:end])
			path = path[end:]
		}
		if n == nil {
			return nil
		}
		if path == "" && wantKey {
			return key
		}
	}
	return resolveAlias(n)
}

// mappingEntry finds a key's pair, in the mapping or else in the mappings
// it merges (<<), where a merged field stands. A large mapping (thousands of
// labels or k0s.patch keys, each with a finding) is indexed once, so placing
// every finding stays linear in the document.
func (doc *Document) mappingEntry(n *yaml.Node, name string) (key, value *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	if key, value = doc.ownEntry(n, name); key != nil || !doc.merges(n) {
		return key, value
	}
	e := doc.mergedEntries(n)[name]
	return e.key, e.value
}

// entry is one pair of a mapping.
type entry struct{ key, value *yaml.Node }

// mergedEntries indexes every key a mapping holds, its own and those it
// merges, the first of each as decoding takes it: own keys, then each
// mapping merged in order with what it merges in turn. Built once per
// mapping and each mapping merged walked once, so that a finding under a
// mapping merging thousands of others (or one mapping thousands of times)
// is placed without walking them all again.
func (doc *Document) mergedEntries(n *yaml.Node) map[string]entry {
	if idx, ok := doc.mergedIndex[n]; ok {
		return idx
	}
	idx := map[string]entry{}
	seen := map[*yaml.Node]bool{}
	var walk func(m *yaml.Node)
	walk = func(m *yaml.Node) {
		if seen[m] {
			return // merged already: it adds nothing the first time did not
		}
		seen[m] = true
		var merged []*yaml.Node
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := resolveAlias(m.Content[i])
			if isMergeKey(k) {
				merged = append(merged, m.Content[i+1])
			} else if _, ok := idx[k.Value]; !ok {
				idx[k.Value] = entry{k, m.Content[i+1]}
			}
		}
		for _, src := range merged {
			for _, s := range mergedMappings(src, func(*yaml.Node) {}) {
				walk(s)
			}
		}
	}
	walk(n)
	if doc.mergedIndex == nil {
		doc.mergedIndex = map[*yaml.Node]map[string]entry{}
	}
	doc.mergedIndex[n] = idx
	return idx
}

// merges says a mapping has a merge key; through the index for a large one.
func (doc *Document) merges(n *yaml.Node) bool {
	_, value := doc.ownEntry(n, "<<")
	return value != nil
}

// ownEntry finds a key's pair among the mapping's own keys.
func (doc *Document) ownEntry(n *yaml.Node, name string) (key, value *yaml.Node) {
	if len(n.Content)/2 > linearScanKeys {
		idx, ok := doc.keyIndex[n]
		if !ok {
			idx = newDuplicates(n).index()
			if doc.keyIndex == nil {
				doc.keyIndex = map[*yaml.Node]map[string]int{}
			}
			doc.keyIndex[n] = idx
		}
		if i, ok := idx[name]; ok {
			return resolveAlias(n.Content[i]), n.Content[i+1]
		}
		return nil, nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := resolveAlias(n.Content[i]); k.Value == name {
			return k, n.Content[i+1]
		}
	}
	return nil, nil
}

func listItem(n *yaml.Node, i int) *yaml.Node {
	switch {
	case n == nil:
		return nil
	case n.Kind == yaml.SequenceNode && i >= 0 && i < len(n.Content):
		return n.Content[i]
	case n.Kind == yaml.ScalarNode && i == 0:
		return n
	}
	return nil
}

// parentPath drops the last segment: a.b[0] -> a.b -> a -> "".
func parentPath(p string) string {
	p = strings.TrimSuffix(p, keySuffix)
	if strings.HasSuffix(p, "]") {
		if i := strings.LastIndex(p, "["); i >= 0 {
			return p[:i]
		}
	}
	if i := strings.LastIndex(p, "."); i >= 0 {
		return p[:i]
	}
	return ""
}
