package k0syaml

import (
	"reflect"
	"strings"

	"github.com/corium/corium-agent/internal/secret"
)

// Tree is n as the document k0s.patch merges over: {"spec": {...}}, each
// key the JSON names of the types spell and no other, lists as []any,
// numbers as int, secrets revealed (the file is their destination). It
// is built from the types by reflection, so a field added to types.go is
// written with no second place to spell its key: a field tagged omitempty
// is left out when empty, as encoding/json leaves it out; one tagged
// omitzero when zero (a nil list, where an empty one is written); any
// other is always written (spec.network and spec.storage, even empty).
func (n Node) Tree() map[string]any {
	return map[string]any{"spec": treeOf(reflect.ValueOf(n))}
}

// treeOf is v as YAML's generic values: a struct a map by JSON names, a
// pointer its value, a list []any.
func treeOf(v reflect.Value) any {
	switch {
	case v.Type() == valueType:
		return v.Interface().(secret.Value).Reveal()
	case v.Kind() == reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return treeOf(v.Elem())
	case v.Kind() == reflect.Slice:
		out := make([]any, 0, v.Len())
		for i := range v.Len() {
			out = append(out, treeOf(v.Index(i)))
		}
		return out
	case v.Kind() == reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if !f.IsExported() || name == "" || name == "-" || omitted(v.Field(i), opts) {
				continue
			}
			out[name] = treeOf(v.Field(i))
		}
		return out
	case v.Kind() == reflect.String:
		return v.String()
	case v.CanInt():
		return int(v.Int())
	case v.Kind() == reflect.Bool:
		return v.Bool()
	}
	return v.Interface()
}

// omitted says whether a field with the JSON tag options opts is left
// out, as encoding/json's Marshal decides, a secret.Value being empty
// when it holds nothing.
func omitted(v reflect.Value, opts string) bool {
	for _, o := range strings.Split(opts, ",") {
		switch o {
		case "omitzero":
			if v.IsZero() {
				return true
			}
		case "omitempty":
			if v.Type() == valueType {
				return v.Interface().(secret.Value).IsZero()
			}
			switch v.Kind() {
			case reflect.Pointer, reflect.Interface:
				return v.IsNil()
			case reflect.Slice, reflect.Map, reflect.String, reflect.Array:
				return v.Len() == 0
			case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
				return v.IsZero()
			}
		}
	}
	return false
}
