package schema

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/secret"
)

// decoder walks yaml.Node into the Config types itself, instead of
// yaml.Unmarshal, so that every mistake becomes a finding with its path and
// position rather than one abort at the first wrong type.
type decoder struct {
	findings Findings
	// given are the findings made, by position and message: a node met
	// again through another alias or merge key is reported once, however
	// many mappings take it. repeats are the paths of the findings made,
	// as the tree spells them (a finding's Path may hide a key, see
	// shownPath), and those such a finding stood for again, so that the
	// rules skip every one of them.
	given   map[site]bool
	repeats []string
	// budget bounds the nodes visited, so that aliases of aliases (a
	// "billion laughs" document) and mappings merged many times cannot make
	// decoding exponential, or a mapping of K keys merged M times cost K·M.
	// Only a document with an alias or a merge key can visit more nodes
	// than it has, so the nodes are counted when the first one is met.
	block   *yaml.Node
	decoded int
	budget  int
	spent   bool
	// at is the path to the value being decoded.
	at pathStack
}

// countNodes counts a tree's nodes without following aliases.
func countNodes(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += countNodes(k)
	}
	return c
}

var (
	valueType   = reflect.TypeOf(secret.Value{})
	addressType = reflect.TypeOf(AddressList{})
	anyMapType  = reflect.TypeOf(map[string]any{})
)

func reflectValue(c *Config) reflect.Value { return reflect.ValueOf(c).Elem() }

func resolveAlias(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// site is where a finding stands and what it says.
type site struct {
	line, col int
	message   string
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	at := d.at.String()
	s := site{n.Line, n.Column, fmt.Sprintf(format, args...)}
	if d.given[s] {
		d.repeats = append(d.repeats, at)
		return
	}
	if d.given == nil {
		d.given = map[site]bool{}
	}
	d.given[s] = true
	d.repeats = append(d.repeats, at)
	d.findings = append(d.findings, finding.Finding{Path: shownPath(at), Line: n.Line, Col: n.Column,
		Severity: finding.Error, Message: s.message})
}

// arm sets the budget when the first alias or merge key is met.
func (d *decoder) arm() {
	if d.budget == 0 {
		d.budget = 4*countNodes(d.block) + 1000
	}
}

// spend counts one node visited against the budget; false once it is spent.
// A decoded value is charged by decode, a key whose value is not decoded
// (unknown, repeated, or given already by the mapping that merges it) by
// the loop that meets it: what an alias or a merge key expands costs what it
// holds, whatever becomes of it.
func (d *decoder) spend(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		d.arm()
	}
	if d.budget > 0 && d.decoded >= d.budget {
		if !d.spent {
			d.spent = true
			d.errorf(n, "the document expands too many aliases; write the values out")
		}
		return false
	}
	d.decoded++
	return true
}

func (d *decoder) decode(n *yaml.Node, v reflect.Value) {
	if !d.spend(n) {
		return
	}
	n = resolveAlias(n)
	if n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null" {
		return // unset, as if the key were absent
	}
	switch t := v.Type(); {
	case t == valueType:
		if d.expect(n, yaml.ScalarNode) {
			v.Set(reflect.ValueOf(secret.NewValue(n.Value)))
		}
		return
	case t == addressType:
		d.decodeAddress(n, v)
		return
	case t == anyMapType:
		if d.expect(n, yaml.MappingNode) {
			v.Set(reflect.ValueOf(d.freeMapping(n)))
		}
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		elem := reflect.New(v.Type().Elem())
		d.decode(n, elem.Elem())
		v.Set(elem)
	case reflect.Struct:
		d.decodeStruct(n, v)
	case reflect.Slice:
		if !d.expect(n, yaml.SequenceNode) {
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, item := range n.Content {
			d.at.enter(segment{index: i, kind: indexSegment})
			d.decode(item, s.Index(i))
			d.at.leave()
		}
		v.Set(s)
	case reflect.Map:
		d.decodeMap(n, v)
	case reflect.String:
		if d.expect(n, yaml.ScalarNode) {
			v.SetString(n.Value)
		}
	case reflect.Int:
		if !d.expect(n, yaml.ScalarNode) {
			return
		}
		i, err := strconv.Atoi(n.Value)
		if n.ShortTag() != "!!int" || err != nil {
			d.errorf(n, "must be a whole number")
			return
		}
		v.SetInt(int64(i))
	case reflect.Bool:
		if !d.expect(n, yaml.ScalarNode) {
			return
		}
		if n.ShortTag() != "!!bool" {
			d.errorf(n, "must be true or false")
			return
		}
		var b bool
		_ = n.Decode(&b)
		v.SetBool(b)
	default:
		panic("schema: no decoder for " + v.Type().String())
	}
}

var kindNames = map[yaml.Kind]string{
	yaml.ScalarNode:   "a single value",
	yaml.SequenceNode: "a list",
	yaml.MappingNode:  "a mapping",
}

// expect reports a kind mismatch without quoting the value (it may be a
// secret).
func (d *decoder) expect(n *yaml.Node, k yaml.Kind) bool {
	if n.Kind == k {
		return true
	}
	d.errorf(n, "must be %s, not %s", kindNames[k], kindNames[n.Kind])
	return false
}

func (d *decoder) decodeAddress(n *yaml.Node, v reflect.Value) {
	if n.Kind == yaml.ScalarNode {
		v.Set(reflect.ValueOf(AddressList{n.Value}))
		return
	}
	if !d.expect(n, yaml.SequenceNode) {
		return
	}
	list := make(AddressList, len(n.Content))
	for i, item := range n.Content {
		d.at.enter(segment{index: i, kind: indexSegment})
		d.decode(item, reflect.ValueOf(&list[i]).Elem())
		d.at.leave()
	}
	v.Set(reflect.ValueOf(list))
}

func (d *decoder) decodeMap(n *yaml.Node, v reflect.Value) {
	if !d.expect(n, yaml.MappingNode) {
		return
	}
	m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
	d.mapPairs(n, m)
	v.Set(m)
}

// mapPairs decodes a mapping's pairs into m, merge keys as structPairs
// merges them: keys m holds already win.
func (d *decoder) mapPairs(n *yaml.Node, m reflect.Value) {
	dups := newDuplicates(n)
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content) && !d.spent; i += 2 {
		k, val := resolveAlias(n.Content[i]), n.Content[i+1]
		if isMergeKey(k) {
			merged = append(merged, val)
			continue
		}
		key := reflect.ValueOf(k.Value).Convert(m.Type().Key())
		first, taken := dups.firstLine(i), m.MapIndex(key).IsValid()
		if (first > 0 || taken) && !d.spend(k) {
			return
		}
		d.at.enter(segment{name: k.Value, kind: keySegment})
		switch {
		case first > 0:
			d.errorf(k, "duplicate key; first given on line %d", first)
		case taken:
			// Given by a mapping that merges this one: that one wins.
		default:
			elem := reflect.New(m.Type().Elem()).Elem()
			d.decode(val, elem)
			m.SetMapIndex(key, elem)
		}
		d.at.leave()
	}
	for _, src := range merged {
		for _, s := range d.mergeSources(src) {
			d.mapPairs(s, m)
		}
	}
}

// keySuffix marks the position of a map key rather than its value.
const keySuffix = "#key"

func (d *decoder) decodeStruct(n *yaml.Node, v reflect.Value) {
	if !d.expect(n, yaml.MappingNode) {
		return
	}
	d.structPairs(n, v, structFields(v.Type()), map[int]bool{})
}

// structPairs decodes a mapping's pairs into v's fields; set holds the
// fields given already. Merge keys (<<) merge as YAML says: the mapping's
// own keys win over merged ones, of several merged mappings the first wins,
// and a merged mapping's keys are checked like the mapping's own (an unknown
// one is reported at its line in the mapping merged).
func (d *decoder) structPairs(n *yaml.Node, v reflect.Value, fields fieldIndex, set map[int]bool) {
	dups := newDuplicates(n)
	var merged []*yaml.Node
	for i := 0; i+1 < len(n.Content) && !d.spent; i += 2 {
		k, val := resolveAlias(n.Content[i]), n.Content[i+1]
		if isMergeKey(k) {
			merged = append(merged, val)
			continue
		}
		idx, known := fields.byName[k.Value]
		first := dups.firstLine(i)
		if (first > 0 || !known || set[idx]) && !d.spend(k) {
			return
		}
		d.at.enter(segment{name: k.Value})
		switch {
		case first > 0:
			d.errorf(k, "duplicate key; first given on line %d", first)
		case !known:
			d.errorf(k, "%s", unknownKeyMessage(d.at.depth() == 1, k.Value, fields.names))
		case set[idx]:
			// Given by a mapping that merges this one: that one wins.
		default:
			d.decode(val, v.Field(idx))
			set[idx] = true
		}
		d.at.leave()
	}
	for _, src := range merged {
		for _, m := range d.mergeSources(src) {
			d.structPairs(m, v, fields, set)
		}
	}
}

func unknownKey(atTop bool, key string, names []string) string {
	if atTop && key == BlockKey {
		return "unknown key; a standalone document is either the block itself or a single corium: key, and a cloud-config starts with #cloud-config"
	}
	if s := suggest(key, names); s != "" {
		return fmt.Sprintf("unknown key; did you mean %q?", s)
	}
	return "unknown key; known keys here: " + strings.Join(names, ", ")
}

// suggest finds the known key a typo most likely meant.
func suggest(key string, names []string) string {
	best, bestDist := "", 3
	for _, n := range names {
		if strings.EqualFold(n, key) {
			return n
		}
		if dist := editDistance(strings.ToLower(key), strings.ToLower(n)); dist < bestDist {
			best, bestDist = n, dist
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

type fieldIndex struct {
	byName map[string]int
	names  []string
}

var fieldCache sync.Map // reflect.Type -> fieldIndex

// structFields maps the yaml names of a struct's fields to their indexes.
func structFields(t reflect.Type) fieldIndex {
	if fi, ok := fieldCache.Load(t); ok {
		return fi.(fieldIndex)
	}
	fi := fieldIndex{byName: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		name := yamlName(t.Field(i))
		if name == "" {
			continue
		}
		fi.byName[name] = i
		fi.names = append(fi.names, name)
	}
	fieldCache.Store(t, fi)
	return fi
}

// yamlName is a field's key in the document, "" for fields not in it.
func yamlName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
	if name == "-" || !f.IsExported() {
		return ""
	}
	if name == "" {
		return strings.ToLower(f.Name[:1]) + f.Name[1:]
	}
	return name
}
