package rules

import (
	"net"
	"strings"
)

// nodeIPSource is where the kubelet's rule for --node-ip is: the kubelet
// hands the flag to ParseNodeIPArgument at start and refuses to run on its
// error (Kubernetes v1.36.3 cmd/kubelet/app/server.go, "bad --node-ip").
const nodeIPSource = "k8s.io/component-helpers v0.36.3 node/util/ips.go parseNodeIP"

// kubeletNodeIP is what the kubelet refuses of the --node-ip that
// --kubelet-extra-args hands it. k0s splits the extra arguments at
// whitespace into --name=value pairs (internal/pkg/flags/flags.go:12-28)
// and passes --node-ip through as it is (pkg/component/worker/kubelet.go:
// 117). The kubelet takes one address or a dual-stack pair, one of each
// family, neither unspecified in a pair; an entry that is no IP it ignores
// with a log line, refusing nothing. Messages never show the value.
func kubeletNodeIP(extraArgs string) Problems {
	var value string
	found := false
	for _, field := range strings.Fields(extraArgs) {
		if name, v, _ := strings.Cut(field, "="); name == "--node-ip" {
			value, found = v, true // the last one wins, as in k0s's map
		}
	}
	if !found || value == "" {
		return nil
	}
	var ips []net.IP
	for _, s := range strings.Split(value, ",") {
		if ip := net.ParseIP(strings.TrimSpace(s)); ip != nil {
			ips = append(ips, ip)
		}
	}
	refuse := func(msg string) Problems {
		return Problems{{Path: "--kubelet-extra-args", Message: "the kubelet refuses its --node-ip: " + msg, Source: nodeIPSource}}
	}
	switch {
	case len(ips) > 2 || (len(ips) == 2 && (ips[0].To4() == nil) == (ips[1].To4() == nil)):
		return refuse("must contain either a single IP or a dual-stack pair of IPs")
	case len(ips) == 2 && (ips[0].IsUnspecified() || ips[1].IsUnspecified()):
		return refuse("dual-stack node IP cannot include '0.0.0.0' or '::'")
	}
	return nil
}
