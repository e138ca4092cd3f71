package render

import (
	"net/netip"
	"sort"
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// JoinTokenPath is where the join token is handed to `k0s install`.
const JoinTokenPath = "/etc/k0s/join-token"

// K0sInstall is what the install command depends on beyond the document.
type K0sInstall struct {
	// NodeAddress is the bare address the node registers; "" when it is
	// decided at boot (then the kubelet picks one itself).
	NodeAddress string
	// SecondAddress is the node's address of the other family in a
	// dual-stack cluster (Decision.Second); "" otherwise.
	SecondAddress string
	// HasToken says a join token was written to JoinTokenPath.
	HasToken bool
	// UnitExists says a k0s unit from an earlier, unfinished run is on
	// disk; `k0s install` refuses to overwrite it without --force.
	UnitExists bool
}

// K0sInstallArgs is the full `k0s install` command line, program name first,
// in a fixed order so plans and tests can compare it as text.
func K0sInstallArgs(cfg *schema.Config, in K0sInstall) []string {
	args := []string{"k0s", "install"}
	if cfg.Role.IsController() {
		args = append(args, "controller", "--config", K0sConfigPath)
	} else {
		args = append(args, "worker")
	}
	switch cfg.Role {
	case schema.RoleSingle:
		args = append(args, "--single")
	case schema.RoleControllerWorker:
		args = append(args, "--enable-worker", "--no-taints")
	}
	if in.HasToken {
		args = append(args, "--token-file", JoinTokenPath)
	}
	if cfg.Role.HasKubelet() {
		// One flag: k0s keeps the last --kubelet-extra-args only.
		var extra []string
		if in.NodeAddress != "" {
			// Both addresses in dual stack, the primary family's first: k0s
			// detects both only when --node-ip is unset, and orders them so
			// itself (k0s v1.36.3+k0s.0 pkg/component/worker/kubelet.go:117-137);
			// the kubelet takes one IP or one of each family
			// (k8s.io/component-helpers v0.36.3 node/util/ips.go parseNodeIP).
			ips := in.NodeAddress
			if in.SecondAddress != "" {
				ips += "," + in.SecondAddress
			}
			extra = append(extra, "--node-ip="+ips)
		}
		if o := KubeletHostnameOverride(cfg); o != "" {
			extra = append(extra, o)
		}
		if len(extra) > 0 {
			args = append(args, "--kubelet-extra-args="+strings.Join(extra, " "))
		}
	}
	if l := k0sLabels(cfg.Node.Labels); l != "" {
		args = append(args, "--labels="+l)
	}
	if t := k0sTaints(cfg.Node.Taints); t != "" {
		args = append(args, "--taints="+t)
	}
	if cfg.Role.IsController() && isIPv6Prefix(cfg.Network.PodCIDR) {
		// k0s refuses IPv6-only pod and service ranges unless every
		// controller runs with this gate (k0s v1.36.3+k0s.0
		// pkg/apis/k0s/v1beta1/network.go:130, docs/single-stack-ipv6.md).
		args = append(args, "--feature-gates=IPv6SingleStack=true")
	}
	if in.UnitExists {
		args = append(args, "--force")
	}
	return args
}

func k0sLabels(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+labels[k])
	}
	return strings.Join(parts, ",")
}

func k0sTaints(taints []schema.Taint) string {
	parts := make([]string, 0, len(taints))
	for _, t := range taints {
		s := t.Key
		if t.Value != "" {
			s += "=" + t.Value
		}
		parts = append(parts, s+":"+t.Effect)
	}
	return strings.Join(parts, ",")
}

func isIPv6Prefix(s string) bool {
	p, err := netip.ParsePrefix(s)
	return err == nil && p.Addr().Is6() && !p.Addr().Is4In6()
}
