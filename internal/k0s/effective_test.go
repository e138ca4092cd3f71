package k0s

import (
	"testing"

	"github.com/corium/corium-agent/internal/k0s/config"
)

// The patch is merged last: over the agent's part and over the node's, as
// k0s.patch is documented to merge, and the facts and ports follow it.
func TestPatchMergedLast(t *testing.T) {
	in := Input{
		BaseInput:  config.BaseInput{Name: "c", Provider: config.ProviderKubeRouter, PodCIDR: "10.244.0.0/16", ServiceCIDR: "10.96.0.0/12", Storage: config.StorageEtcd},
		Controller: true,
		Patch:      map[string]any{"spec": map[string]any{"api": map[string]any{"port": 7443}}},
	}
	e := Of(in)
	if e.Network.APIPort != 7443 || e.Ports.API[0].Number != 7443 {
		t.Errorf("API port %d, ports %v; want the patch's 7443", e.Network.APIPort, e.Ports.API)
	}
	node := e.Node(map[string]any{"spec": map[string]any{"api": map[string]any{"port": 6443, "address": "192.0.2.1"}}})
	api := node["spec"].(map[string]any)["api"].(map[string]any)
	if api["port"] != 7443 || api["address"] != "192.0.2.1" {
		t.Errorf("node's api %v; want the patch's port over the node's, and the node's address", api)
	}
	if _, ok := e.Base["spec"].(map[string]any)["api"]; ok {
		t.Error("Base holds the patch's api")
	}
}
