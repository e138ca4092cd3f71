package firewall

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
)

// guardedNode is a guarded controller+worker of the CNI, with the
// control-plane load balancer, so that every fact the guard reads is in
// play.
func guardedNode(cni schema.CNI) string {
	return fmt.Sprintf(`role: controller+worker
cluster: {endpoint: 192.0.2.100}
network: {cni: %s}
ha: {enabled: true, virtualIP: 192.0.2.100/24, interface: eth0, authPass: Zq8sR2xw}
wireguard:
  - name: wg0
    address: 10.10.0.1/24
    nodeAddress: true
    listenPort: 51820
    privateKey: IIa1qkYlZs7Z5M5wQnvPhmscizENQ2q0NBwt6GJcCHc=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        allowedIPs: [10.10.0.2/32]
firewall: {clusterPorts: overlay}
`, cni)
}

// changeOf is, for each ClusterConfig field the guard's facts are read
// from, a k0s.patch that changes it (the field's value, or the fields it
// only matters together with).
var changeOf = map[string]string{
	"spec.network.provider":                  `{spec: {network: {provider: custom}}}`,
	"spec.network.podCIDR":                   `{spec: {network: {podCIDR: 10.250.0.0/16}}}`,
	"spec.network.serviceCIDR":               `{spec: {network: {serviceCIDR: 10.112.0.0/16}}}`,
	"spec.network.dualStack.enabled":         `{spec: {network: {dualStack: {enabled: true, IPv6podCIDR: "fd00::/48", IPv6serviceCIDR: "fd01::/108"}}}}`,
	"spec.network.dualStack.IPv6podCIDR":     `{spec: {network: {dualStack: {enabled: true, IPv6podCIDR: "fd02::/48", IPv6serviceCIDR: "fd01::/108"}}}}`,
	"spec.network.dualStack.IPv6serviceCIDR": `{spec: {network: {dualStack: {enabled: true, IPv6podCIDR: "fd00::/48", IPv6serviceCIDR: "fd03::/108"}}}}`,
	"spec.storage.type":                      `{spec: {storage: {type: kine}}}`,
	"spec.network.primaryAddressFamily":      `{spec: {network: {primaryAddressFamily: IPv6}}}`,
	"spec.api.port":                          `{spec: {api: {port: 7443}}}`,
	"spec.api.k0sApiPort":                    `{spec: {api: {k0sApiPort: 7444}}}`,
	"spec.konnectivity.agentPort":            `{spec: {konnectivity: {agentPort: 7132}}}`,
	"spec.network.controlPlaneLoadBalancing.keepalived.userSpaceProxyBindPort": `{spec: {network: {controlPlaneLoadBalancing: {keepalived: {userSpaceProxyBindPort: 7445}}}}}`,
	"spec.network.controlPlaneLoadBalancing.enabled":                           `{spec: {network: {controlPlaneLoadBalancing: {enabled: false}}}}`,
	"spec.network.controlPlaneLoadBalancing.type":                              `{spec: {network: {controlPlaneLoadBalancing: {type: None}}}}`,
	"spec.network.controlPlaneLoadBalancing.keepalived.disableLoadBalancer":    `{spec: {network: {controlPlaneLoadBalancing: {keepalived: {disableLoadBalancer: true}}}}}`,
	"spec.network.controlPlaneLoadBalancing.keepalived.virtualServers":         `{spec: {network: {controlPlaneLoadBalancing: {keepalived: {virtualServers: [{ipAddress: 192.0.2.100}]}}}}}`,
	"spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances":          `{spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: []}}}}}`,
	"spec.network.calico.mode":                                                 `{spec: {network: {calico: {mode: ipip}}}}`,
	"spec.network.calico.vxlanPort":                                            `{spec: {network: {calico: {vxlanPort: 4790}}}}`,
	"spec.network.calico.wireguard":                                            `{spec: {network: {calico: {wireguard: true}}}}`,
	"spec.network.kuberouter.metricsPort":                                      `{spec: {network: {kuberouter: {metricsPort: 9080}}}}`,
	"spec.network.kuberouter.extraArgs":                                        `{spec: {network: {kuberouter: {extraArgs: {overlay-encap: fou}}}}}`,
	"spec.network.kuberouter.rawArgs":                                          `{spec: {network: {kuberouter: {rawArgs: [--bgp-port=1179]}}}}`,
	"spec.network.kubeProxy.disabled":                                          `{spec: {network: {kubeProxy: {disabled: true}}}}`,
	"spec.network.kubeProxy.metricsBindAddress":                                `{spec: {network: {kubeProxy: {metricsBindAddress: "0.0.0.0:19249"}}}}`,
	"spec.network.kubeProxy.healthzBindAddress":                                `{spec: {network: {kubeProxy: {healthzBindAddress: "0.0.0.0:19256"}}}}`,
	"spec.network.nodeLocalLoadBalancing.enabled":                              `{spec: {network: {nodeLocalLoadBalancing: {enabled: true}}}}`,
}

// TestGuardFollowsEveryFieldItReads: for each CNI, every ClusterConfig field
// the guard's facts are read from (config.Network.Fields, so a field read
// later is listed here by itself), patched, either changes the guard or is
// refused by validation. A patch the guard did not see would leave it
// guarding what k0s no longer runs.
func TestGuardFollowsEveryFieldItReads(t *testing.T) {
	for _, cni := range []schema.CNI{schema.CNIKubeRouter, schema.CNICalico, schema.CNICustom} {
		base := guardedNode(cni)
		cfg, _, err := schema.Load([]byte(base))
		if err != nil {
			t.Fatalf("%s: %v", cni, err)
		}
		before, err := Render(cfg, schema.Effective(cfg))
		if err != nil {
			t.Fatalf("%s: %v", cni, err)
		}
		net := schema.Effective(cfg).Network
		fields := slices.Compact(slices.Sorted(slices.Values(net.Fields())))
		for _, field := range fields {
			patch, ok := changeOf[field]
			if !ok {
				t.Errorf("%s: the guard reads %s, which this test does not change: add it to changeOf", cni, field)
				continue
			}
			if cni == schema.CNICustom && field == "spec.network.provider" {
				patch = `{spec: {network: {provider: kuberouter}}}`
			}
			doc := base + "k0s:\n  patch: " + patch + "\n"
			patched, findings, err := schema.Load([]byte(doc))
			if err != nil {
				if !strings.Contains(fmt.Sprint(findings.Errors()), "k0s.patch") {
					t.Errorf("%s, %s: refused, but not at the patch: %v", cni, field, err)
				}
				continue
			}
			after, err := Render(patched, schema.Effective(patched))
			if err != nil {
				t.Errorf("%s, %s: validation accepts the patch, the guard refuses it: %v", cni, field, err)
				continue
			}
			if reflect.DeepEqual(before, after) {
				t.Errorf("%s, %s: patched with %s, the guard is the same", cni, field, patch)
			}
		}
	}
}

// TestGuardOfAPatchedNode checks what the guard becomes for the patches the
// field test only sees change something.
func TestGuardOfAPatchedNode(t *testing.T) {
	for _, tc := range []struct {
		name, cni, patch string
		guarded, public  []Port
		pods, tunnels    []string
	}{
		{"calico's VXLAN moved", "calico", `{spec: {network: {calico: {vxlanPort: 4790}}}}`,
			[]Port{{179, "tcp"}, {2380, "tcp"}, {4790, "udp"}, {6443, "tcp"}, {6444, "tcp"}, {8132, "tcp"}, {9091, "tcp"}, {9443, "tcp"}, {10249, "tcp"}, {10250, "tcp"}, {10256, "tcp"}}, nil,
			[]string{"cali*", "vxlan.calico", "vxlan-v6.calico"}, nil},
		{"calico in ipip mode", "calico", `{spec: {network: {calico: {mode: ipip}}}}`,
			[]Port{{179, "tcp"}, {2380, "tcp"}, {6443, "tcp"}, {6444, "tcp"}, {8132, "tcp"}, {9091, "tcp"}, {9443, "tcp"}, {10249, "tcp"}, {10250, "tcp"}, {10256, "tcp"}}, nil,
			[]string{"cali*", "tunl0"}, []string{"ipip"}},
		{"kube-router on fou", "kuberouter", `{spec: {network: {kuberouter: {extraArgs: {overlay-encap: fou, overlay-encap-port: "6555"}}}}}`,
			[]Port{{179, "tcp"}, {2380, "tcp"}, {6443, "tcp"}, {6444, "tcp"}, {6555, "udp"}, {8080, "tcp"}, {8132, "tcp"}, {9443, "tcp"}, {10249, "tcp"}, {10250, "tcp"}, {10256, "tcp"}, {20244, "tcp"}}, nil,
			[]string{"kube-bridge", "tun-*"}, []string{"ipip", "ip6ip6"}},
		{"the API public takes the load balancer's proxy with it", "custom", `{spec: {api: {port: 7443}}}`,
			[]Port{{2380, "tcp"}, {8132, "tcp"}, {9443, "tcp"}, {10249, "tcp"}, {10250, "tcp"}, {10256, "tcp"}}, []Port{{6444, "tcp"}, {7443, "tcp"}},
			nil, nil},
	} {
		doc := guardedNode(schema.CNI(tc.cni)) + "k0s:\n  patch: " + tc.patch + "\n"
		if len(tc.public) > 0 {
			doc = strings.Replace(doc, "firewall: {clusterPorts: overlay}", "firewall: {clusterPorts: overlay, publicPorts: [7443]}", 1)
		}
		cfg, _, err := schema.Load([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		g, err := Render(cfg, schema.Effective(cfg))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !reflect.DeepEqual(g.Ports, tc.guarded) || !reflect.DeepEqual(g.PublicPorts, tc.public) ||
			!reflect.DeepEqual(g.PodInterfaces, tc.pods) || !reflect.DeepEqual(g.Tunnels, tc.tunnels) {
			t.Errorf("%s:\n got ports %v public %v pods %v tunnels %v\nwant ports %v public %v pods %v tunnels %v",
				tc.name, g.Ports, g.PublicPorts, g.PodInterfaces, g.Tunnels, tc.guarded, tc.public, tc.pods, tc.tunnels)
		}
		if tc.name == "the API public takes the load balancer's proxy with it" {
			continue
		}
		if g.Endpoint == nil || !slices.Contains(g.Endpoint.Ports, Port{6444, "tcp"}) {
			t.Errorf("%s: the endpoint %v does not admit the load balancer's proxy, where k0s redirects the VIP's API port", tc.name, g.Endpoint)
		}
	}
}
