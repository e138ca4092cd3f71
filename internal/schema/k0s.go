package schema

import (
	"strconv"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
)

// Effective is what k0s will do with the document (k0s.Of): the effective
// ClusterConfig, its network, the role's ports and what k0s would refuse.
// Validation, render, the guard, the cluster check and status read it; a
// worker renders no k0s.yaml, but its document carries the cluster's
// network all the same, its own k0s.patch included. Problems carry
// ClusterConfig paths (see PatchPath).
func Effective(cfg *Config) k0s.Effective {
	return k0s.Of(k0sInput(cfg))
}

// k0sInput is what the effective configuration takes from the document,
// defaults applied.
func k0sInput(cfg *Config) k0s.Input {
	eff := withDefaults(cfg)
	// k0s knows etcd and kine; sqlite is kine with its default datasource,
	// a file of this controller's, and kine's database is the one
	// storage.dataSourceFrom names (render writes it as kine.dataSource).
	storage := string(eff.Storage.Type)
	if eff.Storage.Type == StorageSQLite {
		storage = string(StorageKine)
	}
	in := k0s.Input{
		BaseInput: config.BaseInput{
			Name:        eff.Cluster.Name,
			Provider:    string(eff.Network.CNI),
			PodCIDR:     eff.Network.PodCIDR,
			ServiceCIDR: eff.Network.ServiceCIDR,
			Storage:     storage,
			HA:          eff.HA.On(),
			VirtualIP:   eff.HA.VirtualIP,
		},
		Controller: eff.Role.IsController(),
		Kubelet:    eff.Role.HasKubelet(),
		Guarded:    eff.Firewall.ClusterPorts == ClusterPortsOverlay,
		Patch:      cfg.K0s.Patch,
	}
	for _, wg := range eff.WireGuard {
		in.OnOverlay = in.OnOverlay || wg.NodeAddress
	}
	return in
}

// PatchPath is where in the document a ClusterConfig path is set: below
// k0s.patch, down to the deepest key the patch holds.
func PatchPath(patch map[string]any, dotted string) string {
	path, _, _ := walkPatch(patch, dotted)
	return path.String()
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
func walkPatch(patch map[string]any, dotted string) (finding.Path, any, bool) {
	path := finding.Path("k0s.patch")
	var cur any = patch
	for _, seg := range strings.Split(dotted, ".") {
		// A list item is name[i], as the facts' paths spell it.
		name, index, isItem := strings.Cut(seg, "[")
		m, ok := cur.(map[string]any)
		if !ok {
			return path, nil, false
		}
		if cur, ok = m[name]; !ok {
			return path, nil, false
		}
		path = path.Key(name)
		if !isItem {
			continue
		}
		i, err := strconv.Atoi(strings.TrimSuffix(index, "]"))
		list, isList := cur.([]any)
		if err != nil || !isList || i < 0 || i >= len(list) {
			return path, nil, false
		}
		cur, path = list[i], path.Index(i)
	}
	return path, cur, true
}
