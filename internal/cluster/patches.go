package cluster

import (
	"reflect"
	"sort"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
)

// nodeOwn are the ClusterConfig paths that are each controller's own: the
// addresses render sets on the node and the VRRP instance's interface,
// source and peers (its virtual IP and router ID are compared by settings).
// The rest is the cluster's.
var nodeOwn = []string{
	"spec.api.address",
	"spec.api.sans",
	"spec.storage.etcd.peerAddress",
	"spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances",
}

// maxPatchFindings caps the findings of one controller's patch: a patch
// that differs in many places is one mistake.
const maxPatchFindings = 10

// patches: k0s reads each controller's own k0s.yaml, and with static
// configuration every controller must have the same ClusterConfig: each
// runs its API server, scheduler and controller manager with its own, and
// the manifests of the CNI, kube-proxy and the extensions come from
// whichever controller applied them last. Every path one controller's
// k0s.patch sets is compared, in the effective ClusterConfig, with the
// first controller's; a difference is reported where the later one's patch
// reaches toward it. Values are not shown: a patch may hold a password.
// What networkFacts reports under spec.network is not reported again.
func (c *check) patches() {
	var ref *node
	var refEff map[string]any
	for _, n := range c.set {
		if !isController(n) {
			continue
		}
		if ref == nil {
			ref, refEff = n, n.k0s.Config
			continue
		}
		if len(ref.cfg.K0s.Patch) == 0 && len(n.cfg.K0s.Patch) == 0 {
			continue
		}
		eff := n.k0s.Config
		paths := map[string]bool{}
		patchLeaves(ref.cfg.K0s.Patch, "", paths)
		patchLeaves(n.cfg.K0s.Patch, "", paths)
		var differ []string
		for p := range paths {
			if isNodeOwn(p) || c.netReported[n] && strings.HasPrefix(p, "spec.network.") {
				continue
			}
			a, aok := lookup(refEff, p)
			b, bok := lookup(eff, p)
			if aok != bok || !reflect.DeepEqual(a, b) {
				differ = append(differ, p)
			}
		}
		sort.Strings(differ)
		for i, p := range differ {
			at, refAt := schema.PatchPath(n.cfg.K0s.Patch, p), schema.PatchPath(ref.cfg.K0s.Patch, p)
			if n.bad[at] || ref.bad[refAt] {
				continue // refused in the file already
			}
			if i == maxPatchFindings-1 && len(differ) > maxPatchFindings {
				c.errorf(n, "k0s.patch", []Place{ref.at("k0s.patch")},
					"differs from %s's in %d more paths of the ClusterConfig; give every controller the same k0s.patch", ref.File, len(differ)-i)
				break
			}
			c.errorf(n, at, []Place{ref.at(refAt)}, "%s; every controller of one cluster runs k0s with the same ClusterConfig (each reads its own k0s.yaml, and the cluster's components follow whichever applied them last): give every controller the same k0s.patch",
				patchDifference(p, n, ref))
		}
	}
}

// patchDifference says how the two documents' patches differ at p.
func patchDifference(p string, n, ref *node) string {
	_, here := lookup(n.cfg.K0s.Patch, p)
	_, there := lookup(ref.cfg.K0s.Patch, p)
	switch {
	case here && there:
		return "sets " + p + " otherwise than " + ref.File + " does"
	case here:
		return "sets " + p + ", which " + ref.File + " leaves to the agent and k0s"
	}
	return "leaves " + p + " to the agent and k0s, but " + ref.File + "'s k0s.patch sets it"
}

// patchLeaves adds the dotted paths of what a patch sets: each value that
// is not a mapping (a list replaces whole), and a mapping whose keys hold
// a dot (which a dotted path cannot name) as one.
func patchLeaves(m map[string]any, prefix finding.Path, out map[string]bool) {
	for k, v := range m {
		p := prefix.Field(k)
		sub, ok := v.(map[string]any)
		if !ok || len(sub) == 0 || hasDottedKey(sub) {
			out[p.String()] = true
			continue
		}
		patchLeaves(sub, p, out)
	}
}

func hasDottedKey(m map[string]any) bool {
	for k := range m {
		if strings.Contains(k, ".") {
			return true
		}
	}
	return false
}

func isNodeOwn(p string) bool {
	for _, own := range nodeOwn {
		if p == own || strings.HasPrefix(p, own+".") {
			return true
		}
	}
	return false
}

// lookup is the value at a dotted path of a ClusterConfig map, and whether
// it is set (null is unset, as k0s decodes it).
func lookup(m map[string]any, dotted string) (any, bool) {
	var cur any = m
	for _, seg := range strings.Split(dotted, ".") {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[seg]; !ok {
			return nil, false
		}
	}
	return cur, cur != nil
}
