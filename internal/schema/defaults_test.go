package schema

import (
	"fmt"
	"reflect"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestApplyDefaults(t *testing.T) {
	var c Config
	c.Role = RoleSingle
	ApplyDefaults(&c)
	if c.Cluster.Name != "corium" || c.Network.PodCIDR != "10.244.0.0/16" || c.Network.ServiceCIDR != "10.96.0.0/12" ||
		c.Network.CNI != CNIKubeRouter || c.Storage.Type != StorageSQLite || c.Firewall.ClusterPorts != ClusterPortsOpen ||
		c.HA.On() || c.HA.Enabled == nil || c.Version == nil || *c.Version != 1 {
		t.Errorf("defaults: %+v", c)
	}
	if c.Node.Name != "" {
		t.Errorf("node.name defaulted to %q; that needs the machine", c.Node.Name)
	}
	w := Config{Role: RoleWorker}
	ApplyDefaults(&w)
	if w.Storage.Type != StorageEtcd {
		t.Errorf("storage for a worker = %s, want etcd", w.Storage.Type)
	}
}

// Given values survive, and a second application changes nothing.
func TestApplyDefaultsKeepsGivenAndIsIdempotent(t *testing.T) {
	on := true
	c := Config{Role: RoleController, Cluster: Cluster{Name: "x"}, Network: Network{CNI: CNICalico},
		Storage: Storage{Type: StorageSQLite}, HA: HA{Enabled: &on}, Firewall: Firewall{ClusterPorts: ClusterPortsOverlay}}
	ApplyDefaults(&c)
	once := c
	ApplyDefaults(&c)
	if !reflect.DeepEqual(once, c) {
		t.Errorf("second ApplyDefaults changed the config")
	}
	if c.Cluster.Name != "x" || c.Network.CNI != CNICalico || c.Storage.Type != StorageSQLite || !c.HA.On() ||
		c.Firewall.ClusterPorts != ClusterPortsOverlay {
		t.Errorf("given values overwritten: %+v", c)
	}
}

// The role ports of a document, through its effective configuration: the
// defaults the document leaves to the agent decide them too.
func TestRolePorts(t *testing.T) {
	ports := func(c Config) []string {
		var out []string
		for _, p := range Effective(&c).Ports.Role {
			out = append(out, fmt.Sprintf("%d/%s", p.Number, p.Proto))
		}
		return out
	}
	ha := true
	patched := func(c Config, patch string) Config {
		if err := yaml.Unmarshal([]byte(patch), &c.K0s.Patch); err != nil {
			t.Fatal(err)
		}
		return c
	}
	cases := []struct {
		name string
		cfg  Config
		want []string
	}{
		{"single (sqlite, kube-router)", Config{Role: RoleSingle},
			[]string{"179/tcp", "2380/tcp", "6443/tcp", "8080/tcp", "8132/tcp", "9443/tcp", "10249/tcp", "10250/tcp", "10256/tcp", "20244/tcp"}},
		{"controller (etcd, no kubelet)", Config{Role: RoleController},
			[]string{"2380/tcp", "6443/tcp", "8132/tcp", "9443/tcp"}},
		{"controller+worker with calico", Config{Role: RoleControllerWorker, Network: Network{CNI: CNICalico}},
			[]string{"179/tcp", "2380/tcp", "4789/udp", "6443/tcp", "8132/tcp", "9091/tcp", "9443/tcp", "10249/tcp", "10250/tcp", "10256/tcp"}},
		{"worker with a custom CNI", Config{Role: RoleWorker, Network: Network{CNI: CNICustom}},
			[]string{"10249/tcp", "10250/tcp", "10256/tcp"}},
		{"controller on kine (no etcd peers; kine's metrics)", Config{Role: RoleController, Storage: Storage{Type: StorageKine}},
			[]string{"2380/tcp", "6443/tcp", "8132/tcp", "9443/tcp"}},
		{"controller with the load balancer's proxy", Config{Role: RoleController, HA: HA{Enabled: &ha}},
			[]string{"2380/tcp", "6443/tcp", "6444/tcp", "8132/tcp", "9443/tcp"}},
		{"ports moved by k0s.patch", patched(Config{Role: RoleControllerWorker, Network: Network{CNI: CNICalico}, HA: HA{Enabled: &ha}}, `
spec:
  api: {port: 7443, k0sApiPort: 7444}
  konnectivity: {agentPort: 7132}
  network:
    calico: {vxlanPort: 4790}
    kubeProxy: {metricsBindAddress: 127.0.0.1:10249, healthzBindAddress: "[::]:10266"}
    controlPlaneLoadBalancing: {keepalived: {userSpaceProxyBindPort: 7445}}
    nodeLocalLoadBalancing: {enabled: true}`),
			[]string{"179/tcp", "2380/tcp", "4790/udp", "7132/tcp", "7443/tcp", "7444/tcp", "7445/tcp", "8093/tcp", "9091/tcp", "10250/tcp", "10266/tcp"}},
		{"kube-router's fou, BGP and metrics moved, kube-proxy off", patched(Config{Role: RoleWorker}, `
spec:
  network:
    kuberouter: {metricsPort: 9080, extraArgs: {overlay-encap: fou, bgp-port: "1179"}, rawArgs: [--overlay-encap-port=6555, --health-port, "21244"]}
    kubeProxy: {disabled: true}`),
			[]string{"1179/tcp", "6555/udp", "9080/tcp", "10250/tcp", "21244/tcp"}},
	}
	for _, c := range cases {
		if got := ports(c.cfg); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
