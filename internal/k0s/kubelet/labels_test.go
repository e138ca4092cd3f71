package kubelet

import (
	"slices"
	"testing"
)

// The cases hold the kubelet's own test of the rule (kubernetes v1.36.3
// cmd/kubelet/app/options/options_test.go TestValidateKubeletFlags) and the
// keys operators write.
func TestRefusesNodeLabel(t *testing.T) {
	for key, refused := range map[string]bool{
		"beta.kubernetes.io/metadata-proxy-ready": true,
		"cloud.google.com/metadata-proxy-ready":   false,
		// A role label is set by an administrator, never by the kubelet.
		"node-role.kubernetes.io/worker":        true,
		"node-role.kubernetes.io/control-plane": true,
		"kubernetes.io/role":                    true,
		"k8s.io/anything":                       true,
		"example.k8s.io/anything":               true,
		"node-restriction.kubernetes.io/zone":   true,
		"sub.kubernetes.io/x":                   true,
		// The kubelet's own namespaces and keys.
		"node.kubernetes.io/pool":                false,
		"team.node.kubernetes.io/pool":           false,
		"kubelet.kubernetes.io/x":                false,
		"topology.kubernetes.io/zone":            false,
		"kubernetes.io/hostname":                 false,
		"beta.kubernetes.io/instance-type":       false,
		"failure-domain.beta.kubernetes.io/zone": false,
		// Outside the Kubernetes namespaces, anything.
		"example.com/role":         false,
		"role":                     false,
		"kubernetes.io":            false, // no prefix: the name is kubernetes.io
		"notkubernetes.io/x":       false,
		"kubernetes.io.example/x":  false,
		"mynode.kubernetes.io.x/y": false,
	} {
		if got := RefusesNodeLabel(key); got != refused {
			t.Errorf("RefusesNodeLabel(%q) = %v, want %v", key, got, refused)
		}
	}
}

func TestKubeletLabelsSorted(t *testing.T) {
	if !slices.IsSorted(KubeletLabels()) || !slices.IsSorted(KubeletLabelNamespaces()) {
		t.Error("the lists are not sorted as the kubelet lists them (sets.String.List)")
	}
	for _, key := range KubeletLabels() {
		if !IsKubeletLabel(key) || RefusesNodeLabel(key) {
			t.Errorf("%s is a kubelet label, refused", key)
		}
	}
}
