package render

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// Every secret K0sInputs carries into k0s.yaml, found by reflection so one
// added tomorrow is in it, lands in a secret field of the codec's typed
// document: k0syaml.Parse reads it back as a secret, and k0syaml.Redact,
// what a plan shows, hides it. A new secret input written as a plain field
// of the document, or as free text, fails here. A new field needs a sample
// below, of the shape RenderK0sConfig accepts.
func TestK0sSecretInputsAreTypedSecrets(t *testing.T) {
	samples := map[string]string{
		"AuthPass":   "Mk0Pa55",
		"DataSource": "postgres://k0s:Mk1Pw-kine@db.example:5432/k0s",
	}
	var in K0sInputs
	v := reflect.ValueOf(&in).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Type != reflect.TypeFor[secret.Value]() {
			continue
		}
		s, ok := samples[f.Name]
		if !ok {
			t.Fatalf("K0sInputs.%s is a secret this test has no sample of: add one, and write it to a secret.Value field of k0syaml.Node", f.Name)
		}
		v.Field(i).Set(reflect.ValueOf(secret.NewValue(s)))
	}
	cfg := haConfig()
	cfg.Storage = schema.Storage{Type: schema.StorageKine, DataSourceFrom: &secret.Source{File: "/run/corium/kine-dsn"}}
	in.NodeAddress = "192.0.2.11"
	conf, err := RenderK0sConfig(cfg, schema.Effective(cfg), in)
	if err != nil {
		t.Fatal(err)
	}
	node, err := k0syaml.Parse(conf)
	if err != nil {
		t.Fatal(err)
	}
	var read []string
	for _, s := range node.Secrets() {
		read = append(read, s.Reveal())
	}
	shown, err := k0syaml.Redact(conf)
	if err != nil {
		t.Fatal(err)
	}
	for field, s := range samples {
		if !strings.Contains(string(conf), s) {
			t.Errorf("K0sInputs.%s is not in k0s.yaml:\n%s", field, conf)
		}
		if !slices.Contains(read, s) {
			t.Errorf("K0sInputs.%s is not a secret field of the typed k0s.yaml (read %d secrets)", field, len(read))
		}
		if strings.Contains(string(shown), s) {
			t.Errorf("K0sInputs.%s shows in the redacted k0s.yaml:\n%s", field, shown)
		}
	}
}
