package schema

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/corium/corium-agent/internal/secret"
)

// The field rules are written as validator/v10 tags on the types and mean
// what validator says they mean; tagrules_test.go holds every document in
// the repository, and random ones, against validator itself. The agent runs
// them through this small interpreter of the tags it uses instead of linking
// validator: validator's package initialisation alone costs about 1.3 ms on
// every start, a fifth of the whole run for a small document, and its
// reflection costs about 3 µs per peer.

// fieldError is one failed tag on one value.
type fieldError struct {
	path  string
	field string // the field's yaml name
	tag   string
	param string
	kind  reflect.Kind
	// value is what oneof quotes; never a secret's text.
	value any
}

// tagCheck is one tag of a chain: omitempty, required, eq, min, max, oneof,
// dive (with its keys...endkeys), or a named string rule.
type tagCheck struct {
	tag   string
	param string
	// num is param as a number, for eq, min and max.
	num int
	// oneof holds oneof's choices.
	oneof []string
	// rule is a named string rule.
	rule func(string) bool
	// keys are the checks on a map's keys, for dive.
	keys []tagCheck
}

// stringRules are the project's named rules; fieldMessages says what each
// wants.
var stringRules = map[string]func(string) bool{
	"dnslabel":      isDNSLabel,
	"hostorip":      isHostOrIP,
	"ifname":        isIfname,
	"netprefix":     isNetPrefix,
	"prefix":        isPrefix,
	"hostprefix":    isHostPrefix,
	"ipaddr":        isIPAddr,
	"wgkey":         isWGKey,
	"hostport":      isHostPort,
	"qualifiedname": isQualifiedName,
	"labelvalue":    isLabelValue,
}

// parseChain reads a validate tag. A tag the interpreter does not know is a
// programming error, caught by the tests on first use.
func parseChain(tag string) []tagCheck {
	if tag == "" {
		return nil
	}
	var chain []tagCheck
	parts := strings.Split(tag, ",")
	for i := 0; i < len(parts); i++ {
		name, param, _ := strings.Cut(parts[i], "=")
		c := tagCheck{tag: name, param: param}
		switch name {
		case "omitempty", "required":
		case "eq", "min", "max":
			n, err := strconv.Atoi(param)
			if err != nil {
				panic("schema: tag " + parts[i] + " needs a whole number")
			}
			c.num = n
		case "oneof":
			c.oneof = strings.Fields(param)
		case "dive":
			if i+1 < len(parts) && parts[i+1] == "keys" {
				end := i + 2
				for end < len(parts) && parts[end] != "endkeys" {
					end++
				}
				if end == len(parts) {
					panic("schema: tag " + tag + " has keys without endkeys")
				}
				c.keys = parseChain(strings.Join(parts[i+2:end], ","))
				i = end
			}
		default:
			if c.rule = stringRules[name]; c.rule == nil {
				panic("schema: no rule for tag " + name)
			}
		}
		chain = append(chain, c)
	}
	return chain
}

// splitDive separates a chain's checks on the value from those on a map's
// keys and on the items, after a dive.
func splitDive(chain []tagCheck) (own, keys, items []tagCheck) {
	for i, c := range chain {
		if c.tag == "dive" {
			return chain[:i], c.keys, chain[i+1:]
		}
	}
	return chain, nil, nil
}

// taggedField is a struct field and its chain.
type taggedField struct {
	index int
	name  string
	chain []tagCheck
}

var taggedFields sync.Map // reflect.Type -> []taggedField

func fieldsOf(t reflect.Type) []taggedField {
	if fs, ok := taggedFields.Load(t); ok {
		return fs.([]taggedField)
	}
	var fs []taggedField
	for i := range t.NumField() {
		f := t.Field(i)
		if name := yamlName(f); name != "" {
			fs = append(fs, taggedField{index: i, name: name, chain: parseChain(f.Tag.Get("validate"))})
		}
	}
	taggedFields.Store(t, fs)
	return fs
}

// tagWalker walks a value, checking every tag the way validator does: struct
// fields are always walked, lists and maps only under dive, and the first
// failing tag of a chain ends that value's checks.
type tagWalker struct {
	errs []fieldError
	at   pathStack
}

func checkTags(cfg *Config) []fieldError {
	r := &tagWalker{}
	r.walkStruct(reflect.ValueOf(cfg).Elem())
	return r.errs
}

func (r *tagWalker) walkStruct(v reflect.Value) {
	for _, f := range fieldsOf(v.Type()) {
		r.at.enter(segment{name: f.name})
		r.check(v.Field(f.index), f.name, f.chain)
		r.at.leave()
	}
}

func (r *tagWalker) check(v reflect.Value, field string, chain []tagCheck) {
	// A set pointer counts as a value even when what it points to is zero:
	// listenPort: 0 is given, and wrong, not absent.
	pointer := false
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			if len(chain) > 0 && chain[0].tag == "required" {
				r.fail(field, chain[0], v, false)
			}
			return
		}
		v, pointer = v.Elem(), true
	}
	// A secret's text is checked but never kept for a message.
	quotable := v.Type() != valueType
	if !quotable {
		v = reflect.ValueOf(v.Interface().(secret.Value).Reveal())
	}
	for i, c := range chain {
		switch c.tag {
		case "omitempty":
			if !pointer && !hasValue(v) {
				return
			}
		case "required":
			if !pointer && !hasValue(v) {
				r.fail(field, c, v, quotable)
				return
			}
		case "dive":
			r.dive(v, field, c, chain[i+1:])
			return
		default:
			if !c.holds(v) {
				r.fail(field, c, v, quotable)
				return
			}
		}
	}
	if v.Kind() == reflect.Struct {
		r.walkStruct(v)
	}
}

func (r *tagWalker) dive(v reflect.Value, field string, c tagCheck, rest []tagCheck) {
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			r.at.enter(segment{index: i, kind: indexSegment})
			r.check(v.Index(i), field, rest)
			r.at.leave()
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			r.at.enter(segment{name: iter.Key().String(), kind: keySegment})
			if len(c.keys) > 0 {
				r.check(iter.Key(), field, c.keys)
			}
			r.check(iter.Value(), field, rest)
			r.at.leave()
		}
	default:
		panic("schema: dive on " + v.Type().String())
	}
}

// hasValue is validator's: lists and maps have one unless nil, everything
// else unless zero.
func hasValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.Interface:
		return !v.IsNil()
	}
	return !v.IsZero()
}

// holds runs one comparison or named rule; strings are measured in
// characters, lists and maps in items.
func (c tagCheck) holds(v reflect.Value) bool {
	if c.rule != nil {
		return c.rule(v.String())
	}
	var n int
	switch v.Kind() {
	case reflect.String:
		if c.tag == "oneof" {
			for _, o := range c.oneof {
				if v.String() == o {
					return true
				}
			}
			return false
		}
		n = utf8.RuneCountInString(v.String())
	case reflect.Slice, reflect.Map, reflect.Array:
		n = v.Len()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n = int(v.Int())
	default:
		panic(fmt.Sprintf("schema: tag %s on %s", c.tag, v.Type()))
	}
	switch c.tag {
	case "eq":
		return n == c.num
	case "min":
		return n >= c.num
	case "max":
		return n <= c.num
	}
	panic("schema: tag " + c.tag + " on " + v.Type().String())
}

func (r *tagWalker) fail(field string, c tagCheck, v reflect.Value, quotable bool) {
	e := fieldError{path: r.at.String(), field: field, tag: c.tag, param: c.param, kind: v.Kind()}
	if quotable && c.tag == "oneof" {
		e.value = v.Interface()
	}
	r.errs = append(r.errs, e)
}
