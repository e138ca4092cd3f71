package schema

import (
	"os"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/schema/schemadoc"
)

const staleHint = "stale: run go generate ./internal/schema"

func TestGeneratedDocsAreCurrent(t *testing.T) {
	want, err := schemadoc.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("docs_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("docs_gen.go is %s", staleHint)
	}
}

func TestReferenceIsCurrent(t *testing.T) {
	got, err := os.ReadFile("../../docs/reference.md")
	if err != nil {
		t.Fatalf("reading the reference (%s): %v", staleHint, err)
	}
	if string(got) != Reference() {
		t.Errorf("docs/reference.md is %s", staleHint)
	}
}

// Every field has a description, an example that is YAML, and every entry
// of the hand-kept maps names a field that exists.
func TestEveryFieldIsDocumented(t *testing.T) {
	d, _ := describeConfig()
	paths := map[string]bool{}
	for _, f := range d.fields {
		paths[f.Path] = true
		if f.Doc == "" {
			t.Errorf("%s: no doc comment on %s", f.Path, f.Parent)
		}
		if f.Example == "" {
			t.Errorf("%s: no example in fieldExamples", f.Path)
			continue
		}
		var v any
		if err := yaml.Unmarshal([]byte(exampleYAML(f.Path, f.Example)), &v); err != nil {
			t.Errorf("%s: example is not YAML: %v", f.Path, err)
		}
	}
	for name, m := range map[string][]string{"fieldExamples": keys(fieldExamples), "fieldDefaults": keys(fieldDefaults), "extraRules": keys(extraRules), "schemaDefaults": keys(schemaDefaults), "crossRules": keys(crossRules)} {
		for _, k := range m {
			if !paths[k] {
				t.Errorf("%s names %q, which is no field", name, k)
			}
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The JSON Schema's defaults are the ones ApplyDefaults applies.
func TestSchemaDefaultsMatchApplyDefaults(t *testing.T) {
	var c Config
	c.Role = RoleController
	ApplyDefaults(&c)
	got := map[string]any{
		"version": *c.Version, "cluster.name": c.Cluster.Name, "network.podCIDR": c.Network.PodCIDR,
		"network.serviceCIDR": c.Network.ServiceCIDR, "network.cni": string(c.Network.CNI),
		"ha.enabled": c.HA.On(), "firewall.clusterPorts": string(c.Firewall.ClusterPorts),
		"SecretSource.waitFor": "0s",
	}
	for k, v := range schemaDefaults {
		if got[k] != v {
			t.Errorf("schema default of %s = %v, ApplyDefaults gives %v", k, v, got[k])
		}
	}
}
