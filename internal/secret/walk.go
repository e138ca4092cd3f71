package secret

import (
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Tag is the struct tag that marks a secret field and says its kind:
// `secret:"wireguard-key"`. Every field of type Value or Source (or a
// pointer to one) carries it; Untagged finds one that does not, for a
// test to fail on. A Value is a secret whatever its tag: In and
// RedactedIn find Values by type, so masking never rests on the tag; the
// tag is what names the field (Fields, Paths) for those that must say
// where a secret is and what it is.
const Tag = "secret"

var (
	valueType  = reflect.TypeFor[Value]()
	sourceType = reflect.TypeFor[Source]()
)

// isSecret reports whether t is Value or Source.
func isSecret(t reflect.Type) bool { return t == valueType || t == sourceType }

// holds caches whether a type holds a Value or a Source anywhere below
// it, so the walks skip what cannot hold one (a label map, k0s.patch's
// free text) without looking at its values.
var holds sync.Map // reflect.Type -> bool

func holdsSecret(t reflect.Type) bool {
	if h, ok := holds.Load(t); ok {
		return h.(bool)
	}
	h, _ := computeHolds(t, map[reflect.Type]bool{}, true)
	return h
}

// computeHolds is whether t holds a secret, by a search from it that does
// not enter a type it is already in (on). Only a result that is whole is
// cached: that of the search's root, and of a type whose search met no
// type it was already in; another goroutine never reads a guess.
func computeHolds(t reflect.Type, on map[reflect.Type]bool, root bool) (h, partial bool) {
	if c, ok := holds.Load(t); ok {
		return c.(bool), false
	}
	if on[t] {
		return false, true
	}
	on[t] = true
	defer delete(on, t)
	var elems []reflect.Type
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		elems = []reflect.Type{t.Elem()}
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				elems = append(elems, f.Type)
			}
		}
	}
	for _, e := range elems {
		eh, ep := false, false
		if isSecret(e) {
			eh = true
		} else {
			eh, ep = computeHolds(e, on, false)
		}
		h, partial = h || eh, partial || ep
	}
	if root || !partial {
		holds.Store(t, h)
	}
	return h, partial
}

// member is a field of a struct that holds a secret, as the walks see it.
type member struct {
	index int
	name  string // under the plan's name tag; "" for a plan of no tag
	kind  string
	// secret: the field is a secret field (tagged, or of a secret type),
	// and kind is its tag's value.
	secret bool
}

type planKey struct {
	t       reflect.Type
	nameTag string
}

// plans caches, per struct type and name tag, its exported fields that
// hold a secret or are one: a walk of thousands of peers reads each
// peer's few secret fields and parses no tag.
var plans sync.Map // planKey -> []member

// planOf is t's members; with a nameTag, only those it names.
func planOf(t reflect.Type, nameTag string) []member {
	k := planKey{t, nameTag}
	if p, ok := plans.Load(k); ok {
		return p.([]member)
	}
	var out []member
	for i := range t.NumField() {
		f := t.Field(i)
		name := TagName(f, nameTag)
		if !f.IsExported() || (nameTag != "" && name == "") {
			continue
		}
		kind, isSecret := secretField(f)
		if isSecret || holdsSecret(f.Type) {
			out = append(out, member{index: i, name: name, kind: kind, secret: isSecret})
		}
	}
	plans.Store(k, out)
	return out
}

// In returns the non-zero Values reachable from v (through structs,
// pointers, slices, arrays and maps' values), in field order: every
// secret v states, found by type. It walks as ReplacedIn does, on a copy
// it leaves each Value in.
func In(v any) []Value {
	if v == nil {
		return nil
	}
	var out []Value
	c := reflect.New(reflect.TypeOf(v)).Elem()
	c.Set(reflect.ValueOf(v))
	replaceIn(c, func(s Value) Value {
		out = append(out, s)
		return s
	})
	return out
}

// RedactedIn is a copy of v with every non-zero Value reachable from it
// replaced by Redacted: the form a plan or a record shows. The pointers,
// slices and maps on the way to a secret are copied, so v is left as it
// was.
func RedactedIn[T any](v T) T {
	return ReplacedIn(v, func(Value) Value { return NewValue(Redacted) })
}

// ReplacedIn is a copy of v with every non-zero Value reachable from it
// replaced by what with makes of it, copied as RedactedIn copies.
func ReplacedIn[T any](v T, with func(Value) Value) T {
	replaceIn(reflect.ValueOf(&v).Elem(), with)
	return v
}

// replaceIn replaces in place every Value below v, which must be
// settable, copying what it goes through first.
func replaceIn(v reflect.Value, with func(Value) Value) {
	t := v.Type()
	if t == valueType {
		if s := v.Interface().(Value); !s.IsZero() {
			v.Set(reflect.ValueOf(with(s)))
		}
		return
	}
	if !holdsSecret(t) {
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(t.Elem())
			c.Elem().Set(v.Elem())
			replaceIn(c.Elem(), with)
			v.Set(c)
		}
	case reflect.Slice:
		if !v.IsNil() {
			c := reflect.MakeSlice(t, v.Len(), v.Len())
			reflect.Copy(c, v)
			for i := range c.Len() {
				replaceIn(c.Index(i), with)
			}
			v.Set(c)
		}
	case reflect.Array:
		for i := range v.Len() {
			replaceIn(v.Index(i), with)
		}
	case reflect.Map:
		if !v.IsNil() {
			c := reflect.MakeMapWithSize(t, v.Len())
			for it := v.MapRange(); it.Next(); {
				e := reflect.New(t.Elem()).Elem()
				e.Set(it.Value())
				replaceIn(e, with)
				c.SetMapIndex(it.Key(), e)
			}
			v.Set(c)
		}
	case reflect.Struct:
		for _, m := range planOf(t, "") {
			replaceIn(v.Field(m.index), with)
		}
	}
}

// Field is a tagged secret field Fields found set.
type Field struct {
	// Path is the field's path by the names its tag key gives
	// (wireguard[0].peers[1].presharedKey for "yaml").
	Path string
	// Kind is the tag's value.
	Kind string
	// Value is the field: a Value, a Source, or a non-nil pointer to one.
	Value reflect.Value
}

// Fields calls visit, in field order, for each secret field below v (one
// tagged Tag, or of a secret type though untagged, with kind "") that is
// set: a non-nil pointer, a non-zero Value, a Source with any
// field set. Names are those the struct tag nameTag gives ("yaml",
// "json"); a field whose name is "-" or that has no such tag is not
// walked. A path is spelled only for a field that is set, so a document
// of thousands of peers without preshared keys costs no string.
func Fields(v any, nameTag string, visit func(Field)) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || !holdsSecret(rv.Type()) {
		return
	}
	w := fieldWalk{nameTag: nameTag, visit: visit}
	w.walk(rv)
}

// step is one step of a path: a field's name, or a list index (name "").
type step struct {
	name  string
	index int
}

type fieldWalk struct {
	nameTag string
	visit   func(Field)
	at      []step
}

func (w *fieldWalk) walk(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			w.walk(v.Elem())
		}
	case reflect.Slice, reflect.Array:
		var plan []member
		isStruct := v.Type().Elem().Kind() == reflect.Struct
		if isStruct && v.Len() > 0 {
			plan = planOf(v.Type().Elem(), w.nameTag) // once for all the items
		}
		for i := range v.Len() {
			w.at = append(w.at, step{index: i})
			if isStruct {
				w.walkStruct(v.Index(i), plan)
			} else {
				w.walk(v.Index(i))
			}
			w.at = w.at[:len(w.at)-1]
		}
	case reflect.Struct:
		w.walkStruct(v, planOf(v.Type(), w.nameTag))
	}
}

func (w *fieldWalk) walkStruct(v reflect.Value, plan []member) {
	for _, m := range plan {
		fv := v.Field(m.index)
		if m.secret && !isSet(fv) {
			continue
		}
		w.at = append(w.at, step{name: m.name})
		if m.secret {
			w.visit(Field{Path: spell(w.at), Kind: m.kind, Value: fv})
		} else {
			w.walk(fv)
		}
		w.at = w.at[:len(w.at)-1]
	}
}

// secretField says whether f is a secret field, and its kind: tagged, or
// of a secret type (a pointer to one) though untagged, with kind "", so
// a forgotten tag, which a test fails on, still leaves the secret found.
func secretField(f reflect.StructField) (kind string, ok bool) {
	if kind, ok := f.Tag.Lookup(Tag); ok {
		return kind, true
	}
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return "", isSecret(t)
}

// isSet says whether a secret field holds anything.
func isSet(v reflect.Value) bool {
	if v.Kind() == reflect.Pointer {
		return !v.IsNil()
	}
	return !v.IsZero() && !(v.Type() == valueType && v.Interface().(Value).IsZero())
}

func spell(at []step) string {
	var b strings.Builder
	for _, s := range at {
		switch {
		case s.name == "":
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case b.Len() > 0:
			b.WriteString("." + s.name)
		default:
			b.WriteString(s.name)
		}
	}
	return b.String()
}

// TagName is f's name under the struct tag key ("yaml", "json"): the tag's
// first part, "" for a field the tag leaves out ("-") or that has none.
func TagName(f reflect.StructField, key string) string {
	name, _, _ := strings.Cut(f.Tag.Get(key), ",")
	if name == "-" {
		return ""
	}
	return name
}

// AnyItem is the step of a TypePath that is every item of a list.
const AnyItem = "[]"

// TypePath is where a type holds a tagged secret field: the names nameTag
// gives, AnyItem for a list's items.
type TypePath struct {
	Names []string
	Kind  string
	// Type is the field's type: a Value, a Source, or a pointer to one.
	Type reflect.Type
}

// Paths are the paths of the secret fields below t (as Fields finds
// them), in field order:
// where a reader of a file the type models finds its secrets.
func Paths(t reflect.Type, nameTag string) []TypePath {
	var out []TypePath
	paths(t, nameTag, nil, &out, map[reflect.Type]bool{})
	return out
}

func paths(t reflect.Type, nameTag string, at []string, out *[]TypePath, on map[reflect.Type]bool) {
	if !holdsSecret(t) || on[t] {
		return
	}
	on[t] = true
	defer delete(on, t)
	switch t.Kind() {
	case reflect.Pointer:
		paths(t.Elem(), nameTag, at, out, on)
	case reflect.Slice, reflect.Array:
		paths(t.Elem(), nameTag, append(at[:len(at):len(at)], AnyItem), out, on)
	case reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name := TagName(f, nameTag)
			if !f.IsExported() || name == "" {
				continue
			}
			here := append(at[:len(at):len(at)], name)
			if kind, ok := secretField(f); ok {
				*out = append(*out, TypePath{Names: here, Kind: kind, Type: f.Type})
				continue
			}
			paths(f.Type, nameTag, here, out, on)
		}
	}
}

// Untagged lists, by Go field path from t's name, every field below t
// whose type is a Value or a Source (or a pointer to one) and that has no
// Tag, and every such type reached through a map or held in a list, where
// no field's path can name it: what a test fails on, so a secret field added without its tag is
// caught. A tagged field of another type is listed too: the tag would
// claim a secret the walks do not find.
func Untagged(t reflect.Type) []string {
	var out []string
	untagged(t, t.Name(), &out, map[reflect.Type]bool{})
	return out
}

func untagged(t reflect.Type, at string, out *[]string, seen map[reflect.Type]bool) {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		if isSecret(t.Elem()) {
			*out = append(*out, at+": a list of secrets, where no field names each; give each its own tagged field, or a struct of its own")
			return
		}
		untagged(t.Elem(), at+"[]", out, seen)
	case reflect.Map:
		if holdsSecret(t) {
			*out = append(*out, at+": a secret inside a map, where no path names it")
		}
	case reflect.Struct:
		if isSecret(t) || seen[t] {
			return
		}
		seen[t] = true
		for i := range t.NumField() {
			f := t.Field(i)
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			_, tagged := f.Tag.Lookup(Tag)
			switch {
			case !f.IsExported():
			case isSecret(ft) && !tagged:
				*out = append(*out, at+"."+f.Name+": a "+ft.String()+" without a `secret:\"kind\"` tag")
			case !isSecret(ft) && tagged:
				*out = append(*out, at+"."+f.Name+": tagged secret, but a "+f.Type.String()+", not a secret.Value or secret.Source")
			case !isSecret(ft):
				untagged(f.Type, at+"."+f.Name, out, seen)
			}
		}
	}
}
