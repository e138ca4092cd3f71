// Package kubelet says what the kubelet of Kubernetes v1.36.3, the
// release k0s v1.36.3+k0s.0 bundles (k0s embedded-bins/Makefile.variables
// kubernetes_version, go.mod k8s.io/kubelet v0.36.3), refuses of what a node
// document hands it: the node labels k0s passes on as --node-labels
// (k0s pkg/component/worker/kubelet.go:113-115).
//
// The rules are written by hand from that release's source, each naming the
// file and line it comes from, as package k0s/rules does for k0s. The kubelet
// publishes half of its label rule, IsKubeletLabel in k8s.io/kubelet's
// pkg/apis; importing it links k8s.io/api and k8s.io/apimachinery, and with
// them an HTTP client and TLS, which the schema must not link (it is what a
// workstation validates with), and grows the agent by about half (19 MB to
// 28 MB). The other half, the namespace test, is private to the kubelet's
// command (cmd/kubelet/app/options). So both are mirrored here.
//
// Taints have no such rule: k0s hands them to the kubelet in its
// configuration file (registerWithTaints, k0s kubelet.go:219-229), whose
// validation checks a taint's key, value and effect for shape only
// (pkg/kubelet/apis/config/validation/validation.go:160-166,
// pkg/util/taints/taints.go:273-289), in any namespace; and the API server's
// NodeRestriction admission forbids a kubelet to change its taints after
// registration, not to register with them
// (plugin/pkg/admission/noderestriction/admission.go:545-549).
package kubelet

// Version is the Kubernetes release these rules are written from.
const Version = "v1.36.3"
