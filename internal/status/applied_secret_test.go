package status_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/status"
)

var (
	valueType  = reflect.TypeFor[secret.Value]()
	sourceType = reflect.TypeFor[secret.Source]()
)

// fillSecrets sets every secret reachable from v, found by reflection so a
// field added tomorrow is in it: each secret.Value to a marker of its own,
// each secret.Source to a URL whose userinfo and query are markers (a
// presigned URL's signature, a password), one item in each list. It
// returns the markers and how many values and sources it set.
func fillSecrets(v reflect.Value, marks *[]string, values, sources *int) {
	mark := func() string {
		m := fmt.Sprintf("MARK%02dxq", len(*marks))
		*marks = append(*marks, m)
		return m
	}
	switch {
	case v.Type() == valueType:
		v.Set(reflect.ValueOf(secret.NewValue(mark())))
		*values++
	case v.Type() == sourceType:
		v.Set(reflect.ValueOf(secret.Source{URL: "https://u:" + mark() + "@h.example/p?sig=" + mark()}))
		*sources++
	case v.Kind() == reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fillSecrets(v.Elem(), marks, values, sources)
	case v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Struct:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fillSecrets(v.Index(0), marks, values, sources)
	case v.Kind() == reflect.Struct && v.CanSet():
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fillSecrets(v.Field(i), marks, values, sources)
			}
		}
	}
}

// The applied record holds the configuration with every secret the
// contract's types hold in one encoding, the redacted one: each
// secret.Value as [redacted], each source's URL without what grants
// access. Read back, each secret is [redacted] (the record cannot be run
// with a secret of its own), and no other way the record's value may be
// printed (JSON, %v, %+v, %#v) shows a secret either.
func TestAppliedRecordHoldsSecretsRedactedOnly(t *testing.T) {
	var cfg schema.Config
	var marks []string
	var values, sources int
	fillSecrets(reflect.ValueOf(&cfg).Elem(), &marks, &values, &sources)
	if values < 4 || sources < 5 {
		t.Fatalf("found %d secret values and %d sources; the token, the password and the two keys, inline and from a source, and the datasource's source at least", values, sources)
	}
	if n := len(schema.SecretFields(&cfg)); n < values {
		t.Errorf("schema.SecretFields lists %d fields, fewer than the %d secret values the types hold", n, values)
	}
	record, err := status.EncodeApplied(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(&cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{string(record), string(js), fmt.Sprintf("%v", cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg)} {
		for _, m := range marks {
			if strings.Contains(out, m) {
				t.Errorf("a secret (%s) shows in:\n%s", m, out)
			}
		}
	}
	if got := strings.Count(string(record), secret.Redacted); got != values+sources {
		t.Errorf("the record has %d redacted values, not %d (%d values, %d source URLs):\n%s", got, values+sources, values, sources, record)
	}
	var back schema.Config
	if err := yaml.Unmarshal(record, &back); err != nil {
		t.Fatal(err)
	}
	var readBack []string
	for _, f := range schema.SecretFields(&back) {
		if f.Inline != nil {
			readBack = append(readBack, f.Inline.Reveal())
		}
	}
	for _, v := range readBack {
		if v != secret.Redacted {
			t.Errorf("a secret reads back from the record as something other than %s", secret.Redacted)
		}
	}
	if len(readBack) != values {
		t.Errorf("%d secrets read back from the record, not %d", len(readBack), values)
	}
}

// No other record of a run has a field of a secret type: the status file,
// the devices record and the plan vocabulary they are made of hold names,
// paths, public keys and outcomes, so they have no encoding of a secret at
// all.
func TestOtherRecordsHoldNoSecretType(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(ty reflect.Type, path string) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice || ty.Kind() == reflect.Map || ty.Kind() == reflect.Array {
			ty = ty.Elem()
		}
		if ty == valueType || ty == sourceType {
			t.Errorf("%s holds a %s", path, ty)
		}
		if ty.Kind() != reflect.Struct || seen[ty] {
			return
		}
		seen[ty] = true
		for i := range ty.NumField() {
			walk(ty.Field(i).Type, path+"."+ty.Field(i).Name)
		}
	}
	for name, v := range map[string]any{"Status": status.Status{}, "Unfinished": status.Unfinished{}, "Device": plan.Device{}, "Validation": status.Validation{}} {
		walk(reflect.TypeOf(v), name)
	}
	if len(seen) < 10 {
		t.Errorf("walked only %d types", len(seen))
	}
}
