package wgquick_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/wgquick"
)

var valueType = reflect.TypeFor[secret.Value]()

// fillSecrets sets every secret.Value field reachable from v (a peer in
// each slice) to a value of its own, and returns the values in order.
func fillSecrets(v reflect.Value, out *[]string) {
	switch {
	case v.Type() == valueType:
		s := fmt.Sprintf("SECRET-%d-%s", len(*out), strings.Repeat("x", 8))
		*out = append(*out, s)
		v.Set(reflect.ValueOf(secret.NewValue(s)))
	case v.Kind() == reflect.Struct:
		for i := range v.NumField() {
			fillSecrets(v.Field(i), out)
		}
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillSecrets(v.Index(0), out)
	}
}

// Every secret.Value field of the types, found by reflection so a field
// added tomorrow is in it: Marshal writes it under one of SecretKeys,
// Secrets lists it, and Redacted hides it. A new secret field the codec
// does not know of fails here.
func TestEverySecretFieldIsKnown(t *testing.T) {
	var f wgquick.File
	var values []string
	fillSecrets(reflect.ValueOf(&f).Elem(), &values)
	if len(values) < 2 {
		t.Fatalf("found %d secret fields; the private and the preshared key at least", len(values))
	}
	text := string(wgquick.Marshal(f))
	redacted := string(wgquick.Marshal(f.Redacted()))
	var listed []string
	for _, s := range f.Secrets() {
		listed = append(listed, s.Reveal())
	}
	for _, v := range values {
		if strings.Contains(redacted, v) {
			t.Errorf("Redacted leaves secret %s in:\n%s", v, redacted)
		}
		if !slices.Contains(listed, v) {
			t.Errorf("Secrets does not list secret %s", v)
		}
		if !slices.Contains(wgquick.SecretValues([]byte(text)), v) {
			t.Errorf("SecretValues does not read secret %s out of the file", v)
		}
		found := false
		for _, l := range strings.Split(text, "\n") {
			if !strings.Contains(l, v) {
				continue
			}
			found = true
			if key, _, _ := strings.Cut(l, " = "); !slices.Contains(wgquick.SecretKeys, key) {
				t.Errorf("secret %s is written under %q, not one of SecretKeys %v", v, key, wgquick.SecretKeys)
			}
		}
		if !found {
			t.Errorf("Marshal does not write secret %s", v)
		}
	}
}
