package schema

import (
	"fmt"
	"strings"
	"testing"
)

// A CNI MTU k0s.patch sets is held to a stated mtu of the node address's
// interface, less the CNI's encapsulation for the tunnels' family.
func TestCNIMTUAgainstAStatedMTU(t *testing.T) {
	const key = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="
	const peer = "IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk="
	doc := func(network, address, mtu, patch string) string {
		allowed := "10.10.0.2/32"
		if strings.Contains(address, ":") {
			allowed = "fd00::2/128"
		}
		s := "role: single\n"
		if network != "" {
			s += "network: " + network + "\n"
		}
		s += "wireguard:\n  - name: wg0\n    address: " + address + "\n    listenPort: 51820\n    nodeAddress: true\n    privateKey: " + key + "\n    peers:\n      - publicKey: " + peer + "\n        allowedIPs: [" + allowed + "]\n"
		if mtu != "" {
			s += "    mtu: " + mtu + "\n"
		}
		return s + "k0s:\n  patch: {spec: {network: " + patch + "}}\n"
	}
	v6net := `{podCIDR: "fd01::/108", serviceCIDR: "fd02::/108"}`
	for _, tc := range []struct {
		name, doc, path, words string
	}{
		{"calico over IPv4",
			doc("{cni: calico}", "10.10.0.1/24", "1420", "{calico: {mtu: 1371}}"),
			`k0s.patch["spec"]["network"]["calico"]["mtu"]`, "is 1371, larger than the 1370 a pod's packet may have over the overlay: wireguard[0].mtu, 1420, less 50 for calico's VXLAN between nodes; set it to at most 1370"},
		{"kube-router over IPv6",
			doc(v6net, "fd00::1/64", "1420", "{kuberouter: {mtu: 1373}}"),
			`k0s.patch["spec"]["network"]["kuberouter"]["mtu"]`, "less 48 for kube-router's IPv6-in-IPv6 (ip6tnl) between nodes; set it to at most 1372"},
		{"kube-router with autoMTU false said again",
			doc("", "10.10.0.1/24", "1420", "{kuberouter: {autoMTU: false, mtu: 1401}}"),
			`k0s.patch["spec"]["network"]["kuberouter"]["mtu"]`, "set it to at most 1400"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantErrorAt(t, tc.doc, tc.path, tc.words)
		})
	}
	for name, d := range map[string]string{
		"calico at the most":                doc("{cni: calico}", "10.10.0.1/24", "1420", "{calico: {mtu: 1370}}"),
		"kube-router at the most":           doc("", "10.10.0.1/24", "1420", "{kuberouter: {mtu: 1400}}"),
		"no stated mtu (render's to check)": doc("", "10.10.0.1/24", "", "{kuberouter: {mtu: 9000}}"),
		// With autoMTU k0s ignores mtu (kuberouter.go IsAutoMTU).
		"kube-router's mtu under autoMTU": doc("", "10.10.0.1/24", "1420", "{kuberouter: {autoMTU: true, mtu: 9000}}"),
		// The other CNI's field is not the one k0s passes on.
		"calico's field under kube-router": doc("", "10.10.0.1/24", "1420", "{calico: {mtu: 9000}}"),
	} {
		_, findings, err := Load([]byte(d))
		if err != nil {
			t.Errorf("%s: refused: %v", name, fmt.Sprint(findings))
		}
		for _, f := range findings.Errors() {
			if strings.HasSuffix(f.Path, `["mtu"]`) {
				t.Errorf("%s: refused: %v", name, f)
			}
		}
	}
}
