package render

import (
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/schema"
)

// checkNetworkIsEffective holds a rendered k0s.yaml to the document's
// effective network (schema.Effective), which the guard, the masquerade and
// the checks were derived from: the node's own part of the file must set
// none of the facts k0s reads the network from.
func checkNetworkIsEffective(t *testing.T, cfg *schema.Config, conf []byte) {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(conf, &doc); err != nil {
		t.Fatalf("reading back %s: %v", K0sConfigPath, err)
	}
	got, _ := config.ReadNetwork(doc)
	if want := schema.Effective(cfg).Network; !reflect.DeepEqual(got, want) {
		t.Errorf("the network of the rendered %s differs from the effective one:\n got %+v\nwant %+v", K0sConfigPath, got, want)
	}
}
