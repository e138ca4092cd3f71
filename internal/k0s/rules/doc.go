// Package rules says what k0s v1.36.3+k0s.0 refuses when a node is
// installed: the ClusterConfig it reads from /etc/k0s/k0s.yaml and the
// command line of `k0s install controller|worker`, and the few things
// `k0s controller|worker` refuses when the installed unit starts.
//
// The rules are written by hand from k0s's own source at that release; each
// one names the k0s file and line it comes from, so a reader can check it
// and the next release can be compared line by line. The package imports
// neither k0s nor Kubernetes's API types and does no I/O (the YAML it reads
// through sigs.k8s.io/yaml, as k0s does): callers hand it bytes and
// arguments, so the same rules serve a unit test on a laptop and the k0s
// stand-in of the boot tests.
//
// What it mirrors:
//   - the decoding k0s does (pkg/apis/k0s/v1beta1/clusterconfig_types.go:313,
//     internal/pkg/strictyaml; its YAML half is sigs.k8s.io/yaml's, called
//     here as k0s calls it): YAML 1.1 scalars, duplicate keys, value types,
//     and unknown keys where k0s's decoder is strict. It is not strict
//     everywhere: spec.api, spec.storage, spec.network and spec.images have
//     UnmarshalJSON methods that decode with a plain json.Unmarshal, so k0s
//     drops unknown keys below them without a word (DroppedKeys lists them);
//   - the Validate methods of the v1beta1 types that a rendered config or a
//     k0s.patch can break;
//   - the flags of the install, controller and worker commands, with the
//     value checks their flag types do while parsing, and the kubelet's rule
//     for the --node-ip that --kubelet-extra-args hands it (one IP or a
//     dual-stack pair; k8s.io/component-helpers node/util/ips.go).
//
// What it does not: rules that depend on the host (the API address and the
// VRRP interface k0s picks from the host's routes and links, a MAC address
// given as a VRRP interface), the kubelet configuration validation behind
// spec.workerProfiles[].values, and anything k0s only finds out while
// running (etcd, kine, the API server refusing its flags).
package rules

// Version is the k0s release these rules are written from; the image pins
// the same release (Containerfile K0S_VERSION).
const Version = "v1.36.3+k0s.0"
