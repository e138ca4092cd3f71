package render

import (
	"slices"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/schema"
)

// dualStackOverlayDoc is a guarded controller+worker of an etcd cluster
// whose node address is on an overlay carrying both families; addrs is
// wg0's address list and patch what the dual-stack patch adds.
func dualStackOverlayDoc(addrs, patch string) string {
	return `role: controller+worker
wireguard:
  - name: wg0
    address: ` + addrs + `
    nodeAddress: true
    mtu: 1420
    listenPort: 51820
    privateKey: AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.12:51820
        allowedIPs: [10.10.0.2/32, "fd10::2/128"]
firewall: {clusterPorts: overlay, publicPorts: [6443]}
k0s:
  patch: {spec: {network: {` + patch + `dualStack: {enabled: true, IPv6podCIDR: "fd00:244::/104", IPv6serviceCIDR: "fd00:96::/108"}}}}
`
}

// renderedK0s is what a node renders of k0s: its k0s.yaml and the install
// line (which render has held to k0s's and the kubelet's rules).
type renderedK0s struct {
	Spec struct {
		API struct {
			Address string
			SANs    []string `yaml:"sans"`
		} `yaml:"api"`
		Storage struct {
			Etcd struct {
				PeerAddress string `yaml:"peerAddress"`
			} `yaml:"etcd"`
		} `yaml:"storage"`
		Network struct {
			KubeRouter struct {
				MTU int `yaml:"mtu"`
			} `yaml:"kuberouter"`
		} `yaml:"network"`
	} `yaml:"spec"`
	install []string
	guard   firewall.Guard
}

func renderK0s(t *testing.T, doc string) renderedK0s {
	t.Helper()
	cfg, findings, err := schema.Load([]byte(doc))
	if err != nil {
		t.Fatalf("%v: %v", err, findings)
	}
	eff := schema.Effective(cfg)
	d := SelectNodeAddress(cfg, eff, nil)
	p, err := Render(Inputs{Config: cfg, K0s: eff, Decision: d, Hostname: DecideHostname(cfg, HostnameFacts{Current: "n1"})})
	if err != nil {
		t.Fatal(err)
	}
	var out renderedK0s
	for _, s := range p.Steps {
		for _, file := range s.Files {
			switch file.Path {
			case K0sConfigPath:
				if err := yaml.Unmarshal(file.Content, &out); err != nil {
					t.Fatal(err)
				}
			case firewall.FilePath:
				if out.guard, err = firewall.ParseFile(file.Content); err != nil {
					t.Fatal(err)
				}
			}
		}
		for _, a := range s.Actions {
			if a.Kind == plan.ActionK0sInstall {
				out.install = a.Args
			}
		}
	}
	return out
}

// The node's address of each family on the overlay goes everywhere the
// node address goes: the kubelet's --node-ip with both, the primary
// family's first; the API address and etcd's peer address in the primary
// family; both on the API's certificate. The guard follows both pod
// ranges, and the CNI's one MTU fits the IPv6 pods' tunnels.
func TestDualStackOnTheOverlayRenders(t *testing.T) {
	for _, tc := range []struct {
		name, addrs, patch, primary, second string
	}{
		{"IPv4 primary", `[10.10.0.1/24, "fd10::1/64"]`, "", "10.10.0.1", "fd10::1"},
		{"IPv6 primary", `["fd10::1/64", 10.10.0.1/24]`, "primaryAddressFamily: IPv6, ", "fd10::1", "10.10.0.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := renderK0s(t, dualStackOverlayDoc(tc.addrs, tc.patch))
			if !slices.Contains(r.install, "--kubelet-extra-args=--node-ip="+tc.primary+","+tc.second) {
				t.Errorf("install line %q lacks --node-ip=%s,%s", r.install, tc.primary, tc.second)
			}
			api := r.Spec.API
			if api.Address != tc.primary || r.Spec.Storage.Etcd.PeerAddress != tc.primary {
				t.Errorf("api.address %q, etcd peerAddress %q; want %s", api.Address, r.Spec.Storage.Etcd.PeerAddress, tc.primary)
			}
			if !slices.Contains(api.SANs, tc.primary) || !slices.Contains(api.SANs, tc.second) {
				t.Errorf("api.sans %q lack the node's address of each family (%s, %s)", api.SANs, tc.primary, tc.second)
			}
			if r.guard.PodCIDR != "10.244.0.0/16" || r.guard.IPv6PodCIDR != "fd00:244::/104" || !r.guard.Masquerade {
				t.Errorf("guard %+v: want both pod ranges, masqueraded", r.guard)
			}
			// 1420 less IPv6-in-IPv6's 48: what the IPv6 pods' tunnels
			// between the nodes' IPv6 addresses need, and IPv4's fit in it.
			if mtu := r.Spec.Network.KubeRouter.MTU; mtu != 1420-48 {
				t.Errorf("kube-router's MTU %d, want %d", mtu, 1420-48)
			}
		})
	}
}
