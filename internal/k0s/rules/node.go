package rules

import "github.com/corium/corium-agent/internal/finding"

// node is a part of the decoded config (see decode.go); the zero node is an
// absent one, so rules can walk paths that are not there.
type node struct {
	v    *value
	path finding.Path
}

func (n node) present() bool { return n.v != nil }

func (n node) child(key string) node {
	p := n.path.Field(key)
	if n.v == nil || n.v.kind != vMap {
		return node{path: p}
	}
	for _, m := range n.v.m {
		if m.key == key {
			return node{v: m.val, path: p}
		}
	}
	return node{path: p}
}

func (n node) at(path ...string) node {
	for _, k := range path {
		n = n.child(k)
	}
	return n
}

// str is the string at key and whether it was set.
func (n node) str(key string) (string, bool) {
	c := n.child(key)
	if c.v == nil || c.v.kind != vString {
		return "", false
	}
	return c.v.s, true
}

// strOr is the string at key, or def when the document leaves it to k0s's
// default.
func (n node) strOr(key, def string) string {
	if s, ok := n.str(key); ok {
		return s
	}
	return def
}

func (n node) num(key string) (int64, bool) {
	c := n.child(key)
	if c.v == nil || c.v.kind != vInt {
		return 0, false
	}
	return c.v.i, true
}

func (n node) flag(key string) (bool, bool) {
	c := n.child(key)
	if c.v == nil || c.v.kind != vBool {
		return false, false
	}
	return c.v.b, true
}

func (n node) items(key string) []node {
	c := n.child(key)
	if c.v == nil || c.v.kind != vList {
		return nil
	}
	out := make([]node, len(c.v.l))
	for i, item := range c.v.l {
		out[i] = node{v: item, path: c.path.Index(i)}
	}
	return out
}

func (n node) strings(key string) []string {
	var out []string
	for _, item := range n.items(key) {
		out = append(out, item.v.s)
	}
	return out
}
