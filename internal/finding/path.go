package finding

import (
	"strconv"
	"strings"
)

// Path is a field path as findings spell it: field names joined by dots,
// list indexes and free-form map keys in brackets
// (wireguard[0].peers[3].publicKey, node.labels["app"]). Build it from the
// root, one step at a time.
type Path string

// Field is p's field name.
func (p Path) Field(name string) Path {
	if p == "" {
		return Path(name)
	}
	return p + "." + Path(name)
}

// Fields is p's fields one below the other, from a dotted name
// ("spec.network.podCIDR").
func (p Path) Fields(dotted string) Path {
	for _, name := range strings.Split(dotted, ".") {
		p = p.Field(name)
	}
	return p
}

// Index is p's i-th list item.
func (p Path) Index(i int) Path { return p + "[" + Path(strconv.Itoa(i)) + "]" }

// Key is p's entry under a free-form map key, quoted, which may hold any
// character.
func (p Path) Key(key string) Path { return p + "[" + Path(strconv.Quote(key)) + "]" }

func (p Path) String() string { return string(p) }
