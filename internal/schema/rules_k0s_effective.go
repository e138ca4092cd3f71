package schema

import (
	"net/netip"

	"github.com/corium/corium-agent/internal/k0s/config"
)

// k0sEffective holds k0s.patch to what the agent owns and derives. The
// patch stays the escape hatch: what the agent derives from the cluster's
// network (Effective) follows it, and what cannot be followed, or
// contradicts a field of the block that owns the fact, is refused at the
// patch's path, so that the node and the block never disagree.
func (v *crossCheck) k0sEffective() {
	patch := v.cfg.K0s.Patch
	v.patchRefused = map[string]bool{}
	for _, p := range v.k0s.Problems {
		// The block's own values are checked where they stand; what the
		// facts cannot work with comes from the patch, and is reported
		// where the patch reaches toward it.
		if at := PatchPath(patch, p.Path); at != "k0s.patch" {
			v.errorf(at, "%s", p.Message)
			v.patchRefused[at] = true
		}
	}
	if len(patch) == 0 {
		return
	}
	net, eff := v.k0s.Network, v.eff
	if validCNI(eff.Network.CNI) && net.Provider != string(eff.Network.CNI) {
		v.errorf(PatchPath(patch, "spec.network.provider"), "sets a CNI other than network.cni (%s), which the guard, the masquerade and the CNI's MTU follow; set network.cni instead", eff.Network.CNI)
	}
	v.sameRange(patch, "spec.network.podCIDR", net.PodCIDR, eff.Network.PodCIDR, "network.podCIDR", "a pod range")
	v.sameRange(patch, "spec.network.serviceCIDR", net.ServiceCIDR, eff.Network.ServiceCIDR, "network.serviceCIDR", "a service range")
	if base := v.k0s.Input.Storage; net.Storage != base {
		v.errorf(PatchPath(patch, "spec.storage.type"), "sets a datastore other than storage.type (%s), which decides etcd's guarded peer port and the checks of several controllers; set storage.type instead", eff.Storage.Type)
	}
	for _, owned := range []struct{ path, why string }{
		{"spec.api.address", "is the node address, which the agent decides on the node and sets; remove it from k0s.patch (mark the interface with nodeAddress to choose it)"},
		{"spec.storage.etcd.peerAddress", "is the node address, which the agent decides on the node and sets; remove it from k0s.patch (mark the interface with nodeAddress to choose it)"},
		// A patched datasource would sit in the document in clear, and with
		// sqlite it would turn the one controller's file into a database
		// others could join, which the checks of sqlite know nothing of.
		{"spec.storage.kine.dataSource", "is kine's datasource, which the agent writes from storage.dataSourceFrom: its URL carries the database's password, which a patch holds in clear; give it as a SecretSource at storage.dataSourceFrom with storage.type kine, and remove it from k0s.patch"},
		{"spec.api.externalAddress", "is cluster.endpoint, which the agent sets and the guard admits clients at; set cluster.endpoint instead"},
		{"spec.api.sans", "replaces the names the agent puts on the API certificate (cluster.endpoint and the node address) instead of adding to them; add names with cluster.subjectAltNames"},
	} {
		if patchSets(patch, owned.path) {
			v.errorf(PatchPath(patch, owned.path), "%s", owned.why)
		}
	}
	onOverlay := v.k0s.Input.OnOverlay
	dualStack := PatchPath(patch, "spec.network.dualStack.enabled")
	switch {
	case !net.DualStack:
	case onOverlay && net.Provider == config.ProviderCalico:
		// k0s runs dual-stack calico only in mode bird (k0s v1.36.3+k0s.0
		// pkg/apis/k0s/v1beta1/network.go:140-142), which routes pods
		// natively: over the overlay their packets to other nodes leave
		// with pod sources, which the peers' allowedIPs drop.
		v.errorf(dualStack, "turns on dual stack, which k0s runs calico with only in mode bird, and bird routes pods natively: over the overlay, their packets to other nodes leave with pod sources, which the peers' allowedIPs drop; use kube-router (network.cni: kuberouter) for dual stack over the overlay, or use one address family")
		v.patchRefused[dualStack] = true
	case onOverlay:
		v.dualStackOverlay(dualStack)
	case net.Provider == config.ProviderCalico && net.Calico.Mode != "bird" && !patchSets(patch, "spec.network.calico.mode"):
		// k0s refuses it at spec.network.calico.mode, which the patch does
		// not set (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/network.go:140-142).
		v.errorf(dualStack, "turns on dual stack, which k0s runs calico with only in mode bird, and calico's mode is vxlan unless the patch sets it; set spec.network.calico.mode to bird in k0s.patch, or use one address family")
		v.patchRefused[dualStack] = true
	}
	if fam := net.NodeFamilies(eff.Cluster.Endpoint)[0]; !net.DualStack && net.PrimaryAddressFamily != "" && net.PrimaryAddressFamily != fam {
		// k0s hands the primary family to the CNI and the DNS address
		// whatever the stack; in a single-stack cluster the ranges decide
		// it (k0s v1.36.3+k0s.0 pkg/apis/k0s/v1beta1/network.go:55-59).
		v.errorf(PatchPath(patch, "spec.network.primaryAddressFamily"), "names a primary family other than that of network.podCIDR and serviceCIDR (%s), the one family of a single-stack cluster; remove it, or turn dual stack on", fam)
	}
	if onOverlay && eff.Network.CNI == CNIKubeRouter && !net.KubeRouter.Overlay {
		v.warnf(PatchPath(patch, "spec.network.kuberouter.extraArgs.enable-overlay"), "turns off kube-router's tunnels: pods' packets to other nodes then leave with pod sources, which the peers' allowedIPs drop; leave the overlay on")
	}
	if onOverlay && eff.Network.CNI == CNICalico && net.Calico.Mode == "bird" {
		v.warnf(PatchPath(patch, "spec.network.calico.mode"), "bird routes pods natively: their packets to other nodes then leave with pod sources, which the peers' allowedIPs drop; keep vxlan or ipip")
	}
}

// sameRange refuses a patched range that is not the block's own.
func (v *crossCheck) sameRange(patch map[string]any, path, got, want, field, what string) {
	g, gerr := netip.ParsePrefix(got)
	w, werr := netip.ParsePrefix(want)
	if werr != nil || (gerr == nil && g.Masked() == w.Masked()) {
		return
	}
	v.errorf(PatchPath(patch, path), "sets %s other than %s, which the guard, the pod masquerade and the checks read; set %s instead", what, field, field)
}

func validCNI(c CNI) bool {
	return c == CNIKubeRouter || c == CNICalico || c == CNICustom
}
