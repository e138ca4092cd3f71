package schema_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
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

// Every field of a secret type in the contract carries its
// `secret:"kind"` tag, which is all SecretFields knows it by, and names a
// kind the agent knows: a secret field added without the tag fails here.
func TestEverySecretFieldIsTagged(t *testing.T) {
	for _, u := range secret.Untagged(reflect.TypeFor[schema.Config]()) {
		t.Errorf("%s: tag it, e.g. `secret:\"%s\"`, so SecretFields lists it", u, schema.SecretWireGuardKey)
	}
	paths := secret.Paths(reflect.TypeFor[schema.Config](), "yaml")
	if len(paths) < 9 {
		t.Fatalf("found %d tagged secret fields; the contract has nine", len(paths))
	}
	for _, p := range paths {
		if !slices.Contains(schema.SecretKinds, schema.SecretKind(p.Kind)) {
			t.Errorf("%v is tagged secret:%q, not one of %v", p.Names, p.Kind, schema.SecretKinds)
		}
	}
}

// SecretFields pairs an inline secret with its source by name, spells its
// path from the yaml names, and takes its kind from the tag.
func TestSecretFieldsPathsAndKinds(t *testing.T) {
	k := secret.NewValue("k")
	cfg := schema.Config{
		Storage:   schema.Storage{DataSourceFrom: &secret.Source{File: "/d"}},
		HA:        schema.HA{AuthPass: &k},
		WireGuard: []schema.WireGuard{{PrivateKeyFrom: &secret.Source{File: "/k"}, Peers: []schema.Peer{{}, {PresharedKey: &k, PresharedKeyFrom: &secret.Source{File: "/p"}}}}},
	}
	var got []string
	for _, f := range schema.SecretFields(&cfg) {
		got = append(got, fmt.Sprintf("%s %s inline=%t from=%t", f.Path, f.Kind, f.Inline != nil, f.From != nil))
	}
	want := []string{
		schema.DataSourcePath + " datasource inline=false from=true",
		schema.AuthPassPath + " password inline=true from=false",
		schema.PrivateKeyPath(0) + " wireguard-key inline=false from=true",
		schema.PresharedKeyPath(0, 1) + " wireguard-key inline=true from=true",
	}
	if !slices.Equal(got, want) {
		t.Errorf("SecretFields:\n%s\nnot\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
