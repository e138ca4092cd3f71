package schema_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

var (
	valueType  = reflect.TypeFor[secret.Value]()
	sourceType = reflect.TypeFor[secret.Source]()
)

// fillSecrets sets every secret.Value and secret.Source reachable from v,
// allocating the structs and one element of each slice on the way, each to
// a marker of its own, and records the markers by Go field path.
func fillSecrets(v reflect.Value, at string, out map[string]string) {
	marker := func() string {
		m := fmt.Sprintf("marker-%d", len(out))
		out[m] = at
		return m
	}
	switch t := v.Type(); {
	case t == valueType:
		v.Set(reflect.ValueOf(secret.NewValue(marker())))
	case t == sourceType:
		v.Set(reflect.ValueOf(secret.Source{File: marker()}))
	case t.Kind() == reflect.Pointer && (t.Elem().Kind() == reflect.Struct):
		if v.IsNil() {
			v.Set(reflect.New(t.Elem()))
		}
		fillSecrets(v.Elem(), at, out)
	case t.Kind() == reflect.Struct:
		for i := range v.NumField() {
			if t.Field(i).IsExported() {
				fillSecrets(v.Field(i), at+"."+t.Field(i).Name, out)
			}
		}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		v.Set(reflect.MakeSlice(t, 1, 1))
		fillSecrets(v.Index(0), at+"[0]", out)
	}
}

// Every secret field of the contract's types, found by reflection so one
// added tomorrow is in it, is listed by SecretFields, which resolution,
// the plan's placeholders and its masks walk: a secret field the list
// misses fails here.
func TestSecretFieldsListsEverySecretField(t *testing.T) {
	var cfg schema.Config
	markers := map[string]string{}
	fillSecrets(reflect.ValueOf(&cfg).Elem(), "Config", markers)
	if len(markers) < 9 {
		t.Fatalf("found %d secret fields; the contract has nine", len(markers))
	}
	var listed []string
	for _, f := range schema.SecretFields(&cfg) {
		if f.Inline != nil {
			listed = append(listed, f.Inline.Reveal())
		}
		if f.From != nil {
			listed = append(listed, f.From.File)
		}
	}
	for m, at := range markers {
		if !slices.Contains(listed, m) {
			t.Errorf("secret field %s is not in SecretFields", at)
		}
	}
}
