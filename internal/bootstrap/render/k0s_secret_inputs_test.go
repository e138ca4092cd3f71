package render

import (
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// k0sSecretSamples are resolved values of each kind of secret, of the
// shape RenderK0sConfig accepts.
var k0sSecretSamples = map[schema.SecretKind]string{
	schema.SecretPassword:     "Mk0Pa55",
	schema.SecretDataSource:   "postgres://k0s:Mk1Pw-kine@db.example:5432/k0s",
	schema.SecretToken:        "Mk2TokenSample",
	schema.SecretWireGuardKey: "Mk3Key+AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
}

// Every secret of the document that RenderK0sConfig places in k0s.yaml,
// looked up by its field path in K0sInputs.Secrets, lands in a secret
// field of the codec's typed document: k0syaml.Parse reads it back as a
// secret, and k0syaml.Redact, what a plan shows, hides it. A new secret
// written as a plain field of the document, or as free text, fails here.
func TestK0sSecretInputsAreTypedSecrets(t *testing.T) {
	cfg := haConfig()
	cfg.Storage = schema.Storage{Type: schema.StorageKine, DataSourceFrom: &secret.Source{File: "/run/corium/kine-dsn"}}
	cfg.Join = schema.Join{TokenFrom: &secret.Source{File: "/run/corium/token"}}
	resolved := Secrets{}
	for _, f := range schema.SecretFields(cfg) {
		s, ok := k0sSecretSamples[f.Kind]
		if !ok {
			t.Fatalf("%s is a secret of kind %q this test has no sample of: add one", f.Path, f.Kind)
		}
		resolved[f.FromPath()] = secret.NewValue(s)
	}
	in := K0sInputs{NodeAddress: "192.0.2.11", Secrets: ConfiguredSecrets(cfg, resolved)}
	if len(in.Secrets) != len(resolved) {
		t.Fatalf("ConfiguredSecrets keeps %d of the %d resolved secrets", len(in.Secrets), len(resolved))
	}
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
	placed := 0
	for path, v := range in.Secrets {
		s := v.Reveal()
		if !strings.Contains(string(conf), s) {
			continue // a secret of another file (the join token's)
		}
		placed++
		if !slices.Contains(read, s) {
			t.Errorf("%s is not a secret field of the typed k0s.yaml (read %d secrets)", path, len(read))
		}
		if strings.Contains(string(shown), s) {
			t.Errorf("%s shows in the redacted k0s.yaml:\n%s", path, shown)
		}
	}
	if placed < 2 || placed != len(read) {
		t.Errorf("k0s.yaml holds %d of the document's secrets and the codec reads %d; the VRRP password and kine's datasource at least:\n%s", placed, len(read), conf)
	}
}
