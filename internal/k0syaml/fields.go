package k0syaml

import (
	"reflect"
	"strings"
	"sync"

	"github.com/corium/corium-agent/internal/secret"
)

var valueType = reflect.TypeFor[secret.Value]()

// document is the whole file as Parse reads it: the agent's part under
// spec.
type document struct {
	Spec Node `json:"spec"`
}

// wireOf is t with every secret.Value turned into a string, the same JSON
// names kept: the type Parse decodes the file into, as k0s decodes it into
// its own string fields, and whose strings it then wraps.
func wireOf(t reflect.Type) reflect.Type {
	switch {
	case t == valueType:
		return reflect.TypeFor[string]()
	case t.Kind() == reflect.Pointer:
		return reflect.PointerTo(wireOf(t.Elem()))
	case t.Kind() == reflect.Slice:
		return reflect.SliceOf(wireOf(t.Elem()))
	case t.Kind() == reflect.Struct:
		fields := make([]reflect.StructField, t.NumField())
		for i := range fields {
			f := t.Field(i)
			fields[i] = reflect.StructField{Name: f.Name, Type: wireOf(f.Type), Tag: f.Tag}
		}
		return reflect.StructOf(fields)
	}
	return t
}

var wireDocument = sync.OnceValue(func() reflect.Type { return wireOf(reflect.TypeFor[document]()) })

// fromWire copies w, a value of wireOf(to's type), into to, wrapping each
// string that stands for a secret.Value.
func fromWire(to, w reflect.Value) {
	switch {
	case to.Type() == valueType:
		to.Set(reflect.ValueOf(secret.NewValue(w.String())))
	case to.Kind() == reflect.Pointer:
		if !w.IsNil() {
			to.Set(reflect.New(to.Type().Elem()))
			fromWire(to.Elem(), w.Elem())
		}
	case to.Kind() == reflect.Slice:
		if !w.IsNil() {
			to.Set(reflect.MakeSlice(to.Type(), w.Len(), w.Len()))
			for i := range w.Len() {
				fromWire(to.Index(i), w.Index(i))
			}
		}
	case to.Kind() == reflect.Struct:
		for i := range to.NumField() {
			fromWire(to.Field(i), w.Field(i))
		}
	default:
		to.Set(w)
	}
}

// anyItem is the step of a secret's path that is every item of a list.
const anyItem = "[]"

// secretPaths are the paths of the secret.Value fields of t, by their JSON
// names, anyItem for a list's items: where Redact finds the agent's
// secrets in a file.
func secretPaths(t reflect.Type, at []string, out *[][]string) {
	switch {
	case t == valueType:
		*out = append(*out, at)
	case t.Kind() == reflect.Pointer:
		secretPaths(t.Elem(), at, out)
	case t.Kind() == reflect.Slice:
		secretPaths(t.Elem(), append(at[:len(at):len(at)], anyItem), out)
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			secretPaths(f.Type, append(at[:len(at):len(at)], name), out)
		}
	}
}

var documentSecretPaths = sync.OnceValue(func() [][]string {
	var out [][]string
	secretPaths(reflect.TypeFor[document](), nil, &out)
	return out
})

// secretsOf are the non-zero secret.Value fields reachable from v, in
// field order.
func secretsOf(v reflect.Value, out *[]secret.Value) {
	switch {
	case v.Type() == valueType:
		if s := v.Interface().(secret.Value); !s.IsZero() {
			*out = append(*out, s)
		}
	case v.Kind() == reflect.Pointer:
		if !v.IsNil() {
			secretsOf(v.Elem(), out)
		}
	case v.Kind() == reflect.Slice:
		for i := range v.Len() {
			secretsOf(v.Index(i), out)
		}
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			secretsOf(v.Field(i), out)
		}
	}
}

// redactIn sets every non-zero secret.Value reachable from v, which must
// be settable and own its pointers and slices, to secret.Redacted.
func redactIn(v reflect.Value) {
	switch {
	case v.Type() == valueType:
		if !v.Interface().(secret.Value).IsZero() {
			v.Set(reflect.ValueOf(secret.NewValue(secret.Redacted)))
		}
	case v.Kind() == reflect.Pointer:
		if !v.IsNil() {
			c := reflect.New(v.Type().Elem())
			c.Elem().Set(v.Elem())
			redactIn(c.Elem())
			v.Set(c)
		}
	case v.Kind() == reflect.Slice:
		if !v.IsNil() {
			c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(c, v)
			for i := range c.Len() {
				redactIn(c.Index(i))
			}
			v.Set(c)
		}
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			redactIn(v.Field(i))
		}
	}
}

// redacted is a copy of v with every secret it states redacted (redactIn).
func redacted[T any](v T) T {
	redactIn(reflect.ValueOf(&v).Elem())
	return v
}

// secretsIn are the non-zero secrets v states (secretsOf).
func secretsIn(v any) []secret.Value {
	var out []secret.Value
	secretsOf(reflect.ValueOf(v), &out)
	return out
}
