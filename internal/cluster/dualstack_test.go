package cluster_test

import (
	"testing"
)

const dualStackPatch = `k0s: {patch: {spec: {network: {dualStack: {enabled: true, IPv6podCIDR: "fd00:244::/104", IPv6serviceCIDR: "fd00:96::/108"}}}}}
`

// dualStackEdits make the three-node set a dual-stack cluster over an
// overlay carrying both families: each wg0 has an IPv6 address beside its
// IPv4 one, and every peer's allowedIPs hold the peer's address of each
// family.
func dualStackEdits() []edit {
	return []edit{
		{"a1.yaml", "role: controller+worker", dualStackPatch + "role: controller+worker"},
		{"a1.yaml", "address: 10.30.0.1/24", `address: [10.30.0.1/24, "fd30::1/64"]`},
		{"a1.yaml", "allowedIPs: [10.30.0.2/32]", `allowedIPs: [10.30.0.2/32, "fd30::2/128"]`},
		{"a1.yaml", "allowedIPs: [10.30.0.11/32]", `allowedIPs: [10.30.0.11/32, "fd30::11/128"]`},
		{"a2.yaml", "role: controller", dualStackPatch + "role: controller"},
		{"a2.yaml", "address: 10.30.0.2/24", `address: [10.30.0.2/24, "fd30::2/64"]`},
		{"a2.yaml", "allowedIPs: [10.30.0.1/32]", `allowedIPs: [10.30.0.1/32, "fd30::1/128"]`},
		{"a2.yaml", "allowedIPs: [10.30.0.11/32]", `allowedIPs: [10.30.0.11/32, "fd30::11/128"]`},
		{"w1.yaml", "role: worker", dualStackPatch + "role: worker"},
		{"w1.yaml", "address: 10.30.0.11/24", `address: [10.30.0.11/24, "fd30::11/64"]`},
		{"w1.yaml", "allowedIPs: [10.30.0.1/32]", `allowedIPs: [10.30.0.1/32, "fd30::1/128"]`},
		{"w1.yaml", "allowedIPs: [10.30.0.2/32]", `allowedIPs: [10.30.0.2/32, "fd30::2/128"]`},
	}
}

// A dual-stack set is one cluster when the overlay carries both families
// between every pair; the check covers the IPv6 addresses as it does the
// IPv4 ones: each unique, each held by the allowedIPs of the peer entries
// that carry it.
func TestDualStackCluster(t *testing.T) {
	if fs := checkSet(t, false, dualStackEdits()...); len(fs) > 0 {
		t.Fatalf("the dual-stack set is one cluster, but:\n%s", lines(fs))
	}
	// a1's entry for a2 without a2's IPv6 address: a1's IPv6 pods'
	// tunnels and the IPv6 API traffic to a2 have no way there.
	missing := append(dualStackEdits(), edit{"a1.yaml", `allowedIPs: [10.30.0.2/32, "fd30::2/128"]`, "allowedIPs: [10.30.0.2/32]"})
	fs := checkSet(t, false, missing...)
	expect(t, fs, want{"a1.yaml", "wireguard[0].peers[0].allowedIPs", errorSev, "do not hold fd30::2 of a2"})
	expect(t, fs, want{"a1.yaml", "wireguard[0].peers", errorSev, "cannot reach, through the overlay, a2 (a2-user-data.yaml wireguard[0]) (fd30::2)"})
	// w1's IPv6 address is a2's.
	dup := append(dualStackEdits(), edit{"w1.yaml", `address: [10.30.0.11/24, "fd30::11/64"]`, `address: [10.30.0.11/24, "fd30::2/64"]`})
	expect(t, checkSet(t, true, dup...), want{w1File, "wireguard[0].address[1]", errorSev, "fd30::2 is also the address of"})
}
