package rules

import (
	"math"

	"gopkg.in/yaml.v3"
)

// Where in the document yaml.v2's and sigs.k8s.io/yaml's refusals are:
// some of their messages carry no line, one carries the line of the map
// rather than of the key. These walk yaml.v3's nodes of the same text to
// the first node of the kind refused; 0 when there is none.

// walk calls f on every node below n, aliases not followed, until f says
// stop.
func walk(n *yaml.Node, f func(n *yaml.Node) bool) bool {
	if f(n) {
		return true
	}
	for _, c := range n.Content {
		if walk(c, f) {
			return true
		}
	}
	return false
}

// lineOf is the line of the first node below root for which match gives one.
func lineOf(root *yaml.Node, match func(n *yaml.Node) int) int {
	line := 0
	walk(root, func(n *yaml.Node) bool {
		line = match(n)
		return line > 0
	})
	return line
}

// keyLine is the line of the first mapping key that is.
func keyLine(root *yaml.Node, is func(k *yaml.Node) bool) int {
	return lineOf(root, func(n *yaml.Node) int {
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			if is(n.Content[i]) {
				return n.Content[i].Line
			}
		}
		return 0
	})
}

func isNullKey(k *yaml.Node) bool { return k.Kind == yaml.ScalarNode && k.ShortTag() == "!!null" }

func deref(n *yaml.Node) *yaml.Node {
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	return n
}

// complexKey is the line and kind of the first key that is a mapping or a
// sequence.
func complexKey(root *yaml.Node) (int, string) {
	kind := "mapping"
	line := keyLine(root, func(k *yaml.Node) bool {
		switch deref(k).Kind {
		case yaml.SequenceNode:
			kind = "sequence"
			return true
		case yaml.MappingNode:
			return true
		}
		return false
	})
	return line, kind
}

// repeatedKeyLine is the line of the value of the second key spelt key in
// the mapping at line, else line.
func repeatedKeyLine(root *yaml.Node, line int, key string) int {
	if at := lineOf(root, func(n *yaml.Node) int {
		if n.Kind != yaml.MappingNode || n.Line != line {
			return 0
		}
		seen := false
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind == yaml.ScalarNode && k.Value == key {
				if seen {
					return n.Content[i+1].Line
				}
				seen = true
			}
		}
		return 0
	}); at > 0 {
		return at
	}
	return line
}

// nonFiniteLine is the line of the first .nan or .inf.
func nonFiniteLine(root *yaml.Node) int {
	return lineOf(root, func(n *yaml.Node) int {
		var f float64
		if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!float" && n.Decode(&f) == nil && (math.IsNaN(f) || math.IsInf(f, 0)) {
			return n.Line
		}
		return 0
	})
}

// badMergeLine is the line of the first merge (<<) of something other than
// a mapping or a sequence of mappings.
func badMergeLine(root *yaml.Node) int {
	return lineOf(root, func(n *yaml.Node) int {
		for i := 0; n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind != yaml.ScalarNode || k.Value != "<<" || k.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) != 0 {
				continue
			}
			v := deref(n.Content[i+1])
			items := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode {
				items = v.Content
			}
			for _, item := range items {
				if deref(item).Kind != yaml.MappingNode {
					return item.Line
				}
			}
		}
		return 0
	})
}

// selfAliasLine is the line of the first alias inside its own anchor's
// value.
func selfAliasLine(root *yaml.Node) int {
	open := map[*yaml.Node]bool{}
	var find func(n *yaml.Node) int
	find = func(n *yaml.Node) int {
		if n.Kind == yaml.AliasNode {
			if open[n.Alias] {
				return n.Line
			}
			return 0
		}
		open[n] = true
		defer delete(open, n)
		for _, c := range n.Content {
			if line := find(c); line > 0 {
				return line
			}
		}
		return 0
	}
	return find(root)
}
