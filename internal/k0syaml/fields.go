package k0syaml

import (
	"reflect"
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

// documentSecretPaths are the paths of Node's fields tagged secret, by
// their JSON names, secret.AnyItem for a list's items: where Redact finds
// the agent's secrets in a file.
var documentSecretPaths = sync.OnceValue(func() [][]string {
	var out [][]string
	for _, p := range secret.Paths(reflect.TypeFor[document](), "json") {
		out = append(out, p.Names)
	}
	return out
})
