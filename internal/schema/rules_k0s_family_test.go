package schema

import (
	"fmt"
	"testing"
)

// The address family and dual-stack rules k0s.patch meets in validation, so
// that validate refuses what apply would refuse at boot, where k0s's own
// refusal lies outside what the patch sets.
func TestK0sPatchFamilyRules(t *testing.T) {
	const ds = `{enabled: true, IPv6podCIDR: "fd00:244::/108", IPv6serviceCIDR: "fd00:96::/108"}`
	for _, tc := range []struct {
		name, doc, path, words string
	}{
		{"dual-stack calico in k0s's default mode",
			"role: single\nnetwork: {cni: calico}\nk0s:\n  patch: {spec: {network: {dualStack: " + ds + "}}}\n",
			`k0s.patch["spec"]["network"]["dualStack"]["enabled"]`, "set spec.network.calico.mode to bird in k0s.patch, or use one address family"},
		{"dual stack over IPv6 ranges",
			"role: single\nnetwork: {podCIDR: \"fd01::/108\", serviceCIDR: \"fd02::/108\"}\nk0s:\n  patch: {spec: {network: {dualStack: " + ds + "}}}\n",
			"k0s.patch", "would refuse at spec.network.podCIDR: if DualStack is enabled, podCIDR must be IPv4"},
		{"a primary family other than the single stack's",
			"role: single\nk0s:\n  patch: {spec: {network: {primaryAddressFamily: IPv6}}}\n",
			`k0s.patch["spec"]["network"]["primaryAddressFamily"]`, "other than that of network.podCIDR and serviceCIDR (IPv4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErrorAt(t, tc.doc, tc.path, tc.words)
		})
	}
	for name, doc := range map[string]string{
		"dual-stack kube-router":         "role: single\nk0s:\n  patch: {spec: {network: {dualStack: " + ds + "}}}\n",
		"dual-stack calico in bird":      "role: single\nnetwork: {cni: calico}\nk0s:\n  patch: {spec: {network: {calico: {mode: bird}, dualStack: " + ds + "}}}\n",
		"dual stack with IPv6 primary":   "role: single\nk0s:\n  patch: {spec: {network: {primaryAddressFamily: IPv6, dualStack: " + ds + "}}}\n",
		"single stack naming its family": "role: single\nnetwork: {podCIDR: \"fd01::/108\", serviceCIDR: \"fd02::/108\"}\nk0s:\n  patch: {spec: {network: {primaryAddressFamily: IPv6}}}\n",
	} {
		if _, findings, err := Load([]byte(doc)); err != nil {
			t.Errorf("%s: refused: %v", name, fmt.Sprint(findings))
		}
	}
}
