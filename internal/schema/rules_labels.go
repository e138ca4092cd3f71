package schema

import (
	"regexp"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s/kubelet"
)

// nodeLabels: k0s hands node.labels to the kubelet as --node-labels, and
// the kubelet refuses to start with a label of the Kubernetes namespaces
// that is not one of its own (kubelet.RefusesNodeLabel). It is refused
// on every role, as the JSON Schema does: a controller's labels do nothing
// (a warning), and the same document on controller+worker would not start.
func (v *crossCheck) nodeLabels() {
	for key := range v.cfg.Node.Labels {
		if !isQualifiedName(key) || !kubelet.RefusesNodeLabel(key) {
			continue // a malformed key is the field rule's
		}
		path := finding.Path("node.labels").Key(key).String()
		v.errorAt(path+keySuffix, path, "%s", kubeletLabelRefusal)
	}
}

// kubeletLabelRefusal says why and what to do, never quoting the key (the
// path shows it when it looks like one).
var kubeletLabelRefusal = "is in the kubernetes.io or k8s.io namespace, where the kubelet sets only labels of its own: " +
	"it refuses to start with any other in --node-labels (Kubernetes " + kubelet.Version + " ValidateKubeletFlags); " +
	"set a node-role label once the node has joined (kubectl label node NODE KEY=VALUE), " +
	"or use a prefix of your own (example.com/role), or a key the kubelet allows: " + kubeletAllows

// kubeletAllows lists the labels of the Kubernetes namespaces the kubelet
// accepts, for the message and the reference.
var kubeletAllows = "any in the " + strings.Join(kubelet.KubeletLabelNamespaces(), " and ") +
	" namespaces (and their subdomains), or one of " + strings.Join(kubelet.KubeletLabels(), ", ")

// kubeletRefusedKeys is the JSON Schema of the keys RefusesNodeLabel
// refuses: in the kubernetes.io or k8s.io namespace (the part before the
// first '/' is it or ends in it) and not a kubelet label.
func kubeletRefusedKeys() map[string]any {
	ns := make([]string, 0, len(kubelet.KubeletLabelNamespaces()))
	for _, n := range kubelet.KubeletLabelNamespaces() {
		ns = append(ns, regexp.QuoteMeta(n))
	}
	own := make([]any, 0, len(kubelet.KubeletLabels()))
	for _, k := range kubelet.KubeletLabels() {
		own = append(own, k)
	}
	return map[string]any{
		"pattern": `^([^/]*\.)?(kubernetes|k8s)\.io/`,
		"not": map[string]any{"anyOf": []any{
			map[string]any{"enum": own},
			map[string]any{"pattern": `^([^/]*\.)?(` + strings.Join(ns, "|") + `)/`},
		}},
	}
}
