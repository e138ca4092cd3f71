package schema

import (
	"reflect"
	"testing"
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

func TestRolePorts(t *testing.T) {
	ports := func(c Config) []Port { return RolePorts(&c) }
	cases := []struct {
		name string
		cfg  Config
		want []Port
	}{
		{"single (sqlite, kube-router)", Config{Role: RoleSingle},
			[]Port{{179, "tcp"}, {6443, "tcp"}, {8132, "tcp"}, {9443, "tcp"}, {10250, "tcp"}}},
		{"controller (etcd, no kubelet)", Config{Role: RoleController},
			[]Port{{2380, "tcp"}, {6443, "tcp"}, {8132, "tcp"}, {9443, "tcp"}}},
		{"controller+worker with calico", Config{Role: RoleControllerWorker, Network: Network{CNI: CNICalico}},
			[]Port{{179, "tcp"}, {2380, "tcp"}, {4789, "udp"}, {6443, "tcp"}, {8132, "tcp"}, {9443, "tcp"}, {10250, "tcp"}}},
		{"worker with a custom CNI", Config{Role: RoleWorker, Network: Network{CNI: CNICustom}},
			[]Port{{10250, "tcp"}}},
	}
	for _, c := range cases {
		if got := ports(c.cfg); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
