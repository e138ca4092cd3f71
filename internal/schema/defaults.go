package schema

// Defaults of the contract. ApplyDefaults is the one place they are applied;
// the rest of the package reads them through it.
const (
	DefaultClusterName  = "corium"
	DefaultPodCIDR      = "10.244.0.0/16"
	DefaultServiceCIDR  = "10.96.0.0/12"
	DefaultCNI          = CNIKubeRouter
	DefaultClusterPorts = ClusterPortsOpen
)

// DefaultStorage is sqlite for a single node, etcd for every other role.
func DefaultStorage(r Role) StorageType {
	if r == RoleSingle {
		return StorageSQLite
	}
	return StorageEtcd
}

// ApplyDefaults fills every unset field that has a default. node.name is left
// alone: its default needs the machine (hostname, machine-id), which is
// render's to read.
func ApplyDefaults(c *Config) {
	if c.Version == nil {
		v := 1
		c.Version = &v
	}
	if c.Cluster.Name == "" {
		c.Cluster.Name = DefaultClusterName
	}
	if c.Network.PodCIDR == "" {
		c.Network.PodCIDR = DefaultPodCIDR
	}
	if c.Network.ServiceCIDR == "" {
		c.Network.ServiceCIDR = DefaultServiceCIDR
	}
	if c.Network.CNI == "" {
		c.Network.CNI = DefaultCNI
	}
	if c.Storage.Type == "" {
		c.Storage.Type = DefaultStorage(c.Role)
	}
	if c.HA.Enabled == nil {
		off := false
		c.HA.Enabled = &off
	}
	if c.Firewall.ClusterPorts == "" {
		c.Firewall.ClusterPorts = DefaultClusterPorts
	}
}

// withDefaults is a copy of c with defaults applied, for rules that need the
// effective value without changing the caller's config.
func withDefaults(c *Config) *Config {
	eff := *c
	ApplyDefaults(&eff)
	return &eff
}
