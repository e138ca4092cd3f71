package schema

import (
	"strings"

	"github.com/corium/corium-agent/internal/k0s/config"
)

// K0sBase is what the agent's ClusterConfig takes from the document: the
// input of config.Base, defaults applied.
func K0sBase(cfg *Config) config.BaseInput {
	eff := withDefaults(cfg)
	// k0s knows etcd and kine; sqlite is kine with its default datasource,
	// a file of this controller's, and kine's database is the one
	// storage.dataSourceFrom names (render writes it as kine.dataSource).
	storage := string(eff.Storage.Type)
	if eff.Storage.Type == StorageSQLite {
		storage = string(StorageKine)
	}
	in := config.BaseInput{
		Name:        eff.Cluster.Name,
		Provider:    string(eff.Network.CNI),
		PodCIDR:     eff.Network.PodCIDR,
		ServiceCIDR: eff.Network.ServiceCIDR,
		Storage:     storage,
		HA:          eff.HA.On(),
		VirtualIP:   eff.HA.VirtualIP,
	}
	for _, wg := range eff.WireGuard {
		in.OnOverlay = in.OnOverlay || wg.NodeAddress
	}
	return in
}

// K0sEffective is the ClusterConfig as far as the document decides it: the
// agent's base with k0s.patch merged over it.
func K0sEffective(cfg *Config) map[string]any {
	doc := config.Base(K0sBase(cfg))
	if len(cfg.K0s.Patch) > 0 {
		doc = config.Merge(doc, cfg.K0s.Patch)
	}
	return doc
}

// EffectiveNetwork is what k0s will do with the cluster's network, read from
// the effective ClusterConfig: the one value the guard, the masquerade, the
// CNI's MTU and the checks derive from. A worker renders no k0s.yaml, but
// its document carries the cluster's network all the same, its own
// k0s.patch included. Problems carry ClusterConfig paths (see PatchPath).
func EffectiveNetwork(cfg *Config) (config.Network, []config.Problem) {
	return config.ReadNetwork(K0sEffective(cfg))
}

// PatchPath is where in the document a ClusterConfig path is set: below
// k0s.patch, down to the deepest key the patch holds.
func PatchPath(patch map[string]any, dotted string) string {
	path, _, _ := walkPatch(patch, dotted)
	return path
}

// patchSets says whether the patch sets a ClusterConfig path (null is
// unset, as k0s decodes it).
func patchSets(patch map[string]any, dotted string) bool {
	_, v, whole := walkPatch(patch, dotted)
	return whole && v != nil
}

// walkPatch follows a dotted ClusterConfig path into the patch: the
// document path of the deepest key found, its value, and whether the whole
// path was there.
func walkPatch(patch map[string]any, dotted string) (string, any, bool) {
	path := "k0s.patch"
	var cur any = patch
	for _, seg := range strings.Split(dotted, ".") {
		m, ok := cur.(map[string]any)
		if !ok {
			return path, nil, false
		}
		if cur, ok = m[seg]; !ok {
			return path, nil, false
		}
		path = mapKeyPath(path, seg)
	}
	return path, cur, true
}

// NodeFamilies are the address families the node registers addresses of,
// the primary first (config.Network.NodeFamilies): the one family of a
// single-stack cluster's ranges, or both, in k0s's order, when k0s.patch
// turns dual stack on.
func NodeFamilies(cfg *Config) []string {
	net, _ := EffectiveNetwork(cfg)
	return net.NodeFamilies(cfg.Cluster.Endpoint)
}
