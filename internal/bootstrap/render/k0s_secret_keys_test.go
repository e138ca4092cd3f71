package render

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// Every secret K0sInputs carries into k0s.yaml, found by reflection so one
// added tomorrow is in it, is written under a key of k0sSecretKeys, the
// keys the plan masks whatever their value: a new secret input whose key
// the list misses fails here. A new field needs a sample below, of the
// shape RenderK0sConfig accepts.
func TestK0sSecretInputsLandUnderSecretKeys(t *testing.T) {
	samples := map[string]string{
		"AuthPass":   "Mk0Pa55",
		"DataSource": "postgres://k0s:Mk1Pw-kine@db.example:5432/k0s",
	}
	markers := map[string]string{"AuthPass": "Mk0Pa55", "DataSource": "Mk1Pw-kine"}
	var in K0sInputs
	v := reflect.ValueOf(&in).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Type != reflect.TypeFor[secret.Value]() {
			continue
		}
		s, ok := samples[f.Name]
		if !ok {
			t.Fatalf("K0sInputs.%s is a secret this test has no sample of: add one, and its k0s.yaml key to k0sSecretKeys", f.Name)
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
	for field, m := range markers {
		found := false
		for _, l := range strings.Split(string(conf), "\n") {
			if !strings.Contains(l, m) {
				continue
			}
			found = true
			key, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimSpace(l), "- "), ":")
			if !slices.Contains(k0sSecretKeys, key) {
				t.Errorf("K0sInputs.%s is written under %q, not one of k0sSecretKeys %v", field, key, k0sSecretKeys)
			}
		}
		if !found {
			t.Errorf("K0sInputs.%s is not in k0s.yaml:\n%s", field, conf)
		}
	}
}
