package schema

import (
	"fmt"
	"strings"
	"testing"
)

// dualStackOverlay is a guarded controller+worker whose node address is on
// an overlay carrying both families, in a dual-stack cluster; address and
// extra replace or add to its parts.
func dualStackOverlay(address, extra string) string {
	return `role: controller+worker
wireguard:
  - name: wg0
    address: ` + address + `
    nodeAddress: true
    listenPort: 51820
    privateKey: IIa1qkYlZs7Z5M5wQnvPhmscizENQ2q0NBwt6GJcCHc=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        allowedIPs: [10.10.0.2/32, "fd10::2/128"]
firewall: {clusterPorts: overlay}
k0s:
  patch: {spec: {network: {` + extra + `dualStack: {enabled: true, IPv6podCIDR: "fd00:244::/104", IPv6serviceCIDR: "fd00:96::/108"}}}}
`
}

// Dual stack over the overlay validates when the overlay carries both
// families, and is refused, at the field that cannot work and saying what
// to do, when it cannot.
func TestDualStackOverOverlay(t *testing.T) {
	const both = `[10.10.0.1/24, "fd10::1/64"]`
	for name, doc := range map[string]string{
		"IPv4 primary":                dualStackOverlay(both, ""),
		"IPv6 primary, IPv6 first":    dualStackOverlay(`["fd10::1/64", 10.10.0.1/24]`, "primaryAddressFamily: IPv6, "),
		"a controller, no kubelet":    strings.Replace(dualStackOverlay(both, ""), "role: controller+worker", "role: controller", 1),
		"masquerade only (unguarded)": strings.Replace(dualStackOverlay(both, ""), "firewall: {clusterPorts: overlay}", "", 1),
	} {
		if _, findings, err := Load([]byte(doc)); err != nil {
			t.Errorf("%s: refused: %v", name, fmt.Sprint(findings))
		}
	}
	const enabled = `k0s.patch["spec"]["network"]["dualStack"]["enabled"]`
	for _, tc := range []struct{ name, doc, path, words string }{
		{"the overlay carries IPv4 only", dualStackOverlay("10.10.0.1/24", ""),
			enabled, "wireguard[0].address (wg0, which holds the node address) has no IPv6 address: the overlay carries one family only"},
		{"the overlay carries IPv6 only", dualStackOverlay(`"fd10::1/64"`, "primaryAddressFamily: IPv6, "),
			enabled, "has no IPv4 address"},
		{"calico, which k0s runs dual stack only in bird", strings.Replace(dualStackOverlay(both, "calico: {mode: bird}, "), "role: controller+worker", "role: controller+worker\nnetwork: {cni: calico}", 1),
			enabled, "use kube-router (network.cni: kuberouter) for dual stack over the overlay"},
		{"IPv4 first with IPv6 primary", dualStackOverlay(both, "primaryAddressFamily: IPv6, "),
			"wireguard[0].address[0]", "dual stack with IPv6 the primary family"},
		{"an overlay address in the IPv6 pod range", dualStackOverlay(`[10.10.0.1/24, "fd00:244::1/64"]`, ""),
			`k0s.patch["spec"]["network"]["dualStack"]["IPv6podCIDR"]`, "overlaps wireguard[0].address[1] (fd00:244::/64)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErrorAt(t, tc.doc, tc.path, tc.words)
		})
	}
}
