package schema

import "gopkg.in/yaml.v3"

// duplicates finds keys a mapping repeats. yaml.v3 keeps every pair in the
// tree, so a repeated key would otherwise silently override the first.
type duplicates struct {
	n *yaml.Node
	// first maps a key to the index of its first pair; only built for large
	// mappings, where scanning the earlier keys would be quadratic, and only
	// when a key is first asked about: a mapping met once the alias budget
	// is spent is never indexed.
	first map[string]int
}

// linearScanKeys is the mapping size up to which scanning earlier keys is
// cheaper than building a map: config mappings hold a handful of keys.
const linearScanKeys = 16

func newDuplicates(n *yaml.Node) *duplicates { return &duplicates{n: n} }

// index is the large mapping's first pair of each key; nil for a small one.
func (d *duplicates) index() map[string]int {
	n := d.n
	if d.first == nil && len(n.Content)/2 > linearScanKeys {
		d.first = make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := resolveAlias(n.Content[i])
			if _, seen := d.first[k.Value]; !seen {
				d.first[k.Value] = i
			}
		}
	}
	return d.first
}

// firstLine returns the line of the first key equal to the key at Content[i]
// when that is an earlier key, or 0 when the key at i is the first.
func (d *duplicates) firstLine(i int) int {
	k := resolveAlias(d.n.Content[i])
	if first := d.index(); first != nil {
		if j := first[k.Value]; j != i {
			return resolveAlias(d.n.Content[j]).Line
		}
		return 0
	}
	for j := 0; j < i; j += 2 {
		if earlier := resolveAlias(d.n.Content[j]); earlier.Value == k.Value {
			return earlier.Line
		}
	}
	return 0
}
