package k0srules

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/yamltext"
)

// k0s reads its config with sigs.k8s.io/yaml's UnmarshalStrict
// (internal/pkg/strictyaml/strictyaml.go:17): the YAML is decoded by
// yaml.v2 (YAML 1.1, duplicate keys refused), turned into JSON, and the JSON
// decoded by encoding/json. This file is the first half: a YAML document
// becomes the JSON value k0s's decoder sees. yaml.v3 parses (positions,
// anchors); the scalars are resolved the way yaml.v2 resolves them, which is
// not how yaml.v3 does: `yes`, `on` and `off` are booleans, `1_000` is 1000.

type vkind int

const (
	vNull vkind = iota
	vBool
	vInt // an integer that fits int64
	vUint
	vFloat
	vString
	vMap
	vList
)

// value is one JSON value, with the YAML line it came from.
type value struct {
	kind vkind
	b    bool
	i    int64
	u    uint64
	f    float64
	s    string
	m    []member // sorted by key, as encoding/json writes a map
	l    []*value
	line int
}

type member struct {
	key string
	val *value
}

// jsonKind is the JSON type name encoding/json uses in its errors.
func (v *value) jsonKind() string {
	switch v.kind {
	case vNull:
		return "null"
	case vBool:
		return "bool"
	case vInt, vUint, vFloat:
		return "number"
	case vString:
		return "string"
	case vMap:
		return "object"
	default:
		return "array"
	}
}

// parseYAML turns data into the JSON value k0s decodes, or the problems
// that stop k0s before it decodes anything (syntax, duplicate keys).
func parseYAML(data []byte) (*value, Problems) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		if errors.Is(err, io.EOF) {
			// An empty file decodes as null: k0s keeps its defaults.
			return &value{kind: vNull}, nil
		}
		// yaml.v3 quotes document text in its messages (an anchor's name,
		// a repeated key); yamltext takes it out.
		line, msg := yamltext.Message(err)
		if line > 0 {
			msg = fmt.Sprintf("line %d: %s", line, msg)
		}
		return nil, Problems{{Message: "yaml: " + msg + ": fix the YAML syntax there", Source: srcStrictYAML}}
	}
	c := &converter{seen: map[*yaml.Node]bool{}}
	v := c.convert(&root)
	if len(c.problems) > 0 {
		return nil, c.problems
	}
	return v, nil
}

const srcStrictYAML = "internal/pkg/strictyaml/strictyaml.go:17"

type converter struct {
	problems Problems
	seen     map[*yaml.Node]bool // aliases being expanded, against cycles
}

func (c *converter) fail(line int, msg string) {
	c.problems = append(c.problems, Problem{
		Message: fmt.Sprintf("yaml: line %d: ", line) + msg,
		Source:  srcStrictYAML,
	})
}

func (c *converter) convert(n *yaml.Node) *value {
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return &value{kind: vNull}
		}
		return c.convert(n.Content[0])
	case yaml.AliasNode:
		if c.seen[n.Alias] {
			c.fail(n.Line, "an alias refers to the anchor whose value holds it: write the value out instead")
			return &value{kind: vNull, line: n.Line}
		}
		c.seen[n.Alias] = true
		defer delete(c.seen, n.Alias)
		return c.convert(n.Alias)
	case yaml.ScalarNode:
		v := resolveScalar(n)
		if v.kind == vFloat && (math.IsNaN(v.f) || math.IsInf(v.f, 0)) {
			// JSON has no NaN or infinity: sigs.k8s.io/yaml's conversion fails.
			c.fail(n.Line, "json: unsupported value: NaN or infinity (.nan, .inf) has no JSON form: write a finite number")
		}
		return v
	case yaml.SequenceNode:
		v := &value{kind: vList, line: n.Line}
		for _, item := range n.Content {
			v.l = append(v.l, c.convert(item))
		}
		return v
	case yaml.MappingNode:
		return c.mapping(n)
	}
	return &value{kind: vNull, line: n.Line}
}

// mapping converts a YAML mapping to a JSON object: keys become strings
// (sigs.k8s.io/yaml turns int, float and bool keys into their text), a key
// set twice is refused (yaml.v2's strict mode, which also refuses a `<<`
// merge that sets a key the mapping already has).
func (c *converter) mapping(n *yaml.Node) *value {
	v := &value{kind: vMap, line: n.Line}
	index := map[string]int{} // JSON key -> position in v.m
	seen := map[string]bool{} // keys as yaml.v2 compares them
	set := func(id, key string, line int, val *value) {
		if seen[id] {
			if shown := shownKey(key); shown != hiddenKey {
				c.fail(line, fmt.Sprintf("key %q already set in map: keep one of them", shown))
			} else {
				c.fail(line, "a key (not shown: it does not look like a field name and may hold a value) is already set in this map: keep one of them")
			}
			return
		}
		seen[id] = true
		if j, ok := index[key]; ok {
			// Two YAML keys with one JSON spelling (1 and "1"): the
			// JSON object keeps one of them.
			v.m[j].val = val
			return
		}
		index[key] = len(v.m)
		v.m = append(v.m, member{key: key, val: val})
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Value == "<<" && kn.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle) == 0 {
			for _, src := range c.mergeSources(vn) {
				for _, mem := range src.m {
					set(scalarID(&value{kind: vString, s: mem.key}), mem.key, vn.Line, mem.val)
				}
			}
			continue
		}
		key, ok := c.key(kn)
		if !ok {
			continue
		}
		set(scalarID(resolveScalar(kn)), key, vn.Line, c.convert(vn))
	}
	sort.SliceStable(v.m, func(i, j int) bool { return v.m[i].key < v.m[j].key })
	return v
}

func (c *converter) mergeSources(n *yaml.Node) []*value {
	var out []*value
	add := func(x *yaml.Node) {
		if mv := c.convert(x); mv.kind == vMap {
			out = append(out, mv)
		} else {
			c.fail(x.Line, "map merge requires map or sequence of maps as the value: merge (<<) only mappings")
		}
	}
	if n.Kind == yaml.SequenceNode {
		for _, x := range n.Content {
			add(x)
		}
	} else {
		add(n)
	}
	return out
}

// key is the JSON key a YAML key becomes.
func (c *converter) key(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode {
		c.fail(n.Line, "unsupported map key: a "+nodeKindName(n)+": write a plain key")
		return "", false
	}
	k := resolveScalar(n)
	switch k.kind {
	case vString:
		return k.s, true
	case vInt:
		return strconv.FormatInt(k.i, 10), true
	case vUint:
		return strconv.FormatUint(k.u, 10), true
	case vBool:
		return strconv.FormatBool(k.b), true
	case vFloat:
		s := strconv.FormatFloat(k.f, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, true
	}
	c.fail(n.Line, "unsupported map key of type <nil>: write a plain key")
	return "", false
}

// scalarID is a key as yaml.v2 compares keys: by type and value, so the
// string "1" and the integer 1 are two keys.
func scalarID(v *value) string {
	return fmt.Sprintf("%d:%v:%v:%v:%v:%s", v.kind, v.b, v.i, v.u, v.f, v.s)
}

func nodeKindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	}
	return "node"
}
