package kubelet

import (
	"slices"
	"strings"
)

// kubeletLabels are the label keys in the Kubernetes namespaces a kubelet
// may set on its own Node (k8s.io/kubelet v0.36.3
// pkg/apis/well_known_labels.go:35-48; the values are k8s.io/api v0.36.3
// core/v1/well_known_labels.go), sorted as KubeletLabels lists them.
var kubeletLabels = []string{
	"beta.kubernetes.io/arch",
	"beta.kubernetes.io/instance-type",
	"beta.kubernetes.io/os",
	"failure-domain.beta.kubernetes.io/region",
	"failure-domain.beta.kubernetes.io/zone",
	"kubernetes.io/arch",
	"kubernetes.io/hostname",
	"kubernetes.io/os",
	"node.kubernetes.io/instance-type",
	"topology.kubernetes.io/region",
	"topology.kubernetes.io/zone",
}

// kubeletLabelNamespaces are the namespaces, and their subdomains, a
// kubelet may set any label in (well_known_labels.go:50-53).
var kubeletLabelNamespaces = []string{"kubelet.kubernetes.io", "node.kubernetes.io"}

// KubeletLabels are the label keys of the Kubernetes namespaces that a
// kubelet may set outside KubeletLabelNamespaces (well_known_labels.go:56).
func KubeletLabels() []string { return slices.Clone(kubeletLabels) }

// KubeletLabelNamespaces are the namespaces in which a kubelet may set any
// label, with their subdomains (well_known_labels.go:61).
func KubeletLabelNamespaces() []string { return slices.Clone(kubeletLabelNamespaces) }

// IsKubeletLabel is IsKubeletLabel (well_known_labels.go:67-80): the label
// key is one a kubelet may set on its own Node.
func IsKubeletLabel(key string) bool {
	if slices.Contains(kubeletLabels, key) {
		return true
	}
	ns := labelNamespace(key)
	for _, allowed := range kubeletLabelNamespaces {
		if ns == allowed || strings.HasSuffix(ns, "."+allowed) {
			return true
		}
	}
	return false
}

// RefusesNodeLabel says the kubelet refuses to start with key in
// --node-labels: it is in a Kubernetes namespace and not a kubelet label.
// It is the unknown-labels half of ValidateKubeletFlags
// (kubernetes v1.36.3 cmd/kubelet/app/options/options.go:150-167, which
// cmd/kubelet/app/server.go:212 runs before the kubelet starts); the other
// half, the key's and value's shape, is the schema's qualified name and
// label value rules.
func RefusesNodeLabel(key string) bool {
	return isKubernetesLabel(key) && !IsKubeletLabel(key)
}

// isKubernetesLabel is isKubernetesLabel (options.go:178-187).
func isKubernetesLabel(key string) bool {
	ns := labelNamespace(key)
	return ns == "kubernetes.io" || strings.HasSuffix(ns, ".kubernetes.io") ||
		ns == "k8s.io" || strings.HasSuffix(ns, ".k8s.io")
}

// labelNamespace is getLabelNamespace (options.go:189-194, and
// well_known_labels.go:82-87): the prefix before the first '/', "" without
// one.
func labelNamespace(key string) string {
	ns, _, found := strings.Cut(key, "/")
	if !found {
		return ""
	}
	return ns
}
