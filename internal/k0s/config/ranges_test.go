package config

import (
	"slices"
	"testing"
)

// The ranges of both families, in k0s's order: the primary family's first.
func TestRangesOfBothFamilies(t *testing.T) {
	single := Network{PodCIDR: "10.244.0.0/16", ServiceCIDR: "10.96.0.0/12"}
	dual := single
	dual.DualStack, dual.IPv6PodCIDR, dual.IPv6ServiceCIDR = true, "fd00:244::/108", "fd00:96::/108"
	ipv6First := dual
	ipv6First.PrimaryAddressFamily = FamilyIPv6
	for _, tc := range []struct {
		name      string
		n         Network
		endpoint  string
		pod, svcs []string
	}{
		{"single stack", single, "", []string{"10.244.0.0/16"}, []string{"10.96.0.0/12"}},
		// dual stack switched off keeps its IPv6 ranges out
		{"dual stack off", Network{PodCIDR: "10.244.0.0/16", ServiceCIDR: "10.96.0.0/12", IPv6PodCIDR: "fd00:244::/108"}, "", []string{"10.244.0.0/16"}, []string{"10.96.0.0/12"}},
		{"dual stack", dual, "", []string{"10.244.0.0/16", "fd00:244::/108"}, []string{"10.96.0.0/12", "fd00:96::/108"}},
		{"dual stack, IPv6 primary", ipv6First, "", []string{"fd00:244::/108", "10.244.0.0/16"}, []string{"fd00:96::/108", "10.96.0.0/12"}},
		{"dual stack, IPv6 endpoint", dual, "[2001:db8::10]:6443", []string{"fd00:244::/108", "10.244.0.0/16"}, []string{"fd00:96::/108", "10.96.0.0/12"}},
	} {
		if got := tc.n.PodCIDRs(tc.endpoint); !slices.Equal(got, tc.pod) {
			t.Errorf("%s: pod ranges %v, want %v", tc.name, got, tc.pod)
		}
		if got := tc.n.ServiceCIDRs(tc.endpoint); !slices.Equal(got, tc.svcs) {
			t.Errorf("%s: service ranges %v, want %v", tc.name, got, tc.svcs)
		}
	}
}
