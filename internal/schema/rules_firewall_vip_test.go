package schema

import (
	"fmt"
	"strings"
	"testing"
)

// A controller whose cluster.endpoint is its own ha.virtualIP is the HA
// design the docs recommend (docs/cluster.md, "HA across the controllers"):
// no warning, so --strict passes it. Any other underlay endpoint keeps the
// warning that the guard admits the endpoint's ports to it.
func TestEndpointOnOwnVIPIsNoWarning(t *testing.T) {
	const base = "role: controller\ncluster:\n  endpoint: 192.0.2.100\njoin:\n  tokenFrom: {file: /run/t}\n" +
		"wireguard:\n  - name: wg0\n    address: 10.10.0.2/24\n    listenPort: 51820\n    privateKeyFrom: {file: /run/k}\n    nodeAddress: true\n" +
		"    peers:\n      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=\n        endpoint: 192.0.2.10:51820\n        allowedIPs: [10.10.0.1/32]\n" +
		"firewall:\n  clusterPorts: overlay\n"
	const ha = "ha:\n  enabled: %s\n  virtualIP: %s\n  interface: eth0\n  authPassFrom: {file: /run/p}\n"
	for _, tc := range []struct {
		name, ha string
		warns    bool
	}{
		{"the controller's own VIP", fmt.Sprintf(ha, "true", "192.0.2.100/24"), false},
		{"no ha block", "", true},
		{"ha disabled", fmt.Sprintf(ha, "false", "192.0.2.100/24"), true},
		{"another VIP", fmt.Sprintf(ha, "true", "192.0.2.101/24"), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(base + tc.ha))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range Validate(doc) {
				if f.Path == "cluster.endpoint" {
					got = append(got, f.String())
				}
			}
			if warned := len(got) > 0 && strings.Contains(got[0], "is not on the overlay"); warned != tc.warns || len(got) > 1 {
				t.Errorf("cluster.endpoint findings %q, want the underlay warning: %v", got, tc.warns)
			}
		})
	}
}
