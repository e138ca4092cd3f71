package schema

import (
	"github.com/corium/corium-agent/internal/secret"
)

// Config is the corium block, contract v1. A key added here is permanent: it
// ships to every node and must be supported forever.
//
// Pointers mark fields where "unset" and "zero" differ (an omitted listenPort
// is not port 0). Defaults are applied only by ApplyDefaults.
type Config struct {
	// Version of the contract; only 1 is accepted.
	Version *int `yaml:"version,omitempty" json:"version,omitempty"`
	// Role is what the node becomes.
	Role Role `yaml:"role" json:"role"`
	// Cluster names the cluster and its API endpoint.
	Cluster Cluster `yaml:"cluster,omitempty" json:"cluster,omitzero"`
	// Network holds the cluster's pod and service ranges and its CNI.
	Network Network `yaml:"network,omitempty" json:"network,omitzero"`
	// Storage is the control plane's datastore.
	Storage Storage `yaml:"storage,omitempty" json:"storage,omitzero"`
	// Join carries the k0s join token.
	Join Join `yaml:"join,omitempty" json:"join,omitzero"`
	// Node is this machine's name, labels and taints.
	Node Node `yaml:"node,omitempty" json:"node,omitzero"`
	// HA is the control-plane virtual IP through k0s keepalived.
	HA HA `yaml:"ha,omitempty" json:"ha,omitzero"`
	// WireGuard lists the host overlay interfaces.
	WireGuard []WireGuard `yaml:"wireguard,omitempty" json:"wireguard,omitempty"`
	// Firewall is the guard for the role's k0s ports.
	Firewall Firewall `yaml:"firewall,omitempty" json:"firewall,omitzero"`
	// K0s holds the escape hatch into the rendered k0s.yaml.
	K0s K0s `yaml:"k0s,omitempty" json:"k0s,omitzero"`
}

// Role is what the node becomes.
type Role string

const (
	RoleSingle           Role = "single"
	RoleController       Role = "controller"
	RoleControllerWorker Role = "controller+worker"
	RoleWorker           Role = "worker"
)

// IsController reports whether the role runs a k0s controller.
func (r Role) IsController() bool { return r != RoleWorker }

// HasKubelet reports whether the role runs a kubelet.
func (r Role) HasKubelet() bool { return r != RoleController }

// Cluster names the cluster and its API endpoint.
type Cluster struct {
	// Name is the k0s ClusterConfig name (a DNS label).
	Name string `yaml:"name,omitempty" json:"name,omitempty"`
	// Endpoint is the host or IP clients and joiners use.
	Endpoint string `yaml:"endpoint,omitempty" json:"endpoint,omitempty"`
	// SubjectAltNames are extra API certificate names.
	SubjectAltNames []string `yaml:"subjectAltNames,omitempty" json:"subjectAltNames,omitempty"`
}

// Network holds the cluster's pod and service ranges and its CNI.
type Network struct {
	PodCIDR     string `yaml:"podCIDR,omitempty" json:"podCIDR,omitempty"`
	ServiceCIDR string `yaml:"serviceCIDR,omitempty" json:"serviceCIDR,omitempty"`
	CNI         CNI    `yaml:"cni,omitempty" json:"cni,omitempty"`
}

// CNI is the cluster network provider.
type CNI string

const (
	CNIKubeRouter CNI = "kuberouter"
	CNICalico     CNI = "calico"
	CNICustom     CNI = "custom"
)

// Storage is the control plane's datastore.
type Storage struct {
	Type StorageType `yaml:"type,omitempty" json:"type,omitempty"`
}

// StorageType names a datastore.
type StorageType string

const (
	StorageEtcd   StorageType = "etcd"
	StorageSQLite StorageType = "sqlite"
)

// Join carries the k0s join token, inline (a liability) or from a SecretSource.
type Join struct {
	Token     *secret.Value  `yaml:"token,omitempty" json:"token,omitempty"`
	TokenFrom *secret.Source `yaml:"tokenFrom,omitempty" json:"tokenFrom,omitempty"`
}

// Node is this machine's name, labels and taints.
type Node struct {
	Name   string            `yaml:"name,omitempty" json:"name,omitempty"`
	Labels map[string]string `yaml:"labels,omitempty" json:"labels,omitempty"`
	Taints []Taint           `yaml:"taints,omitempty" json:"taints,omitempty"`
}

// Taint is a Kubernetes node taint.
type Taint struct {
	Key    string `yaml:"key" json:"key"`
	Value  string `yaml:"value,omitempty" json:"value,omitempty"`
	Effect string `yaml:"effect" json:"effect"`
}

// HA is the control-plane virtual IP through k0s keepalived (VRRP).
type HA struct {
	Enabled         *bool          `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	VirtualIP       string         `yaml:"virtualIP,omitempty" json:"virtualIP,omitempty"`
	Interface       string         `yaml:"interface,omitempty" json:"interface,omitempty"`
	VirtualRouterID *int           `yaml:"virtualRouterID,omitempty" json:"virtualRouterID,omitempty"`
	AuthPass        *secret.Value  `yaml:"authPass,omitempty" json:"authPass,omitempty"`
	AuthPassFrom    *secret.Source `yaml:"authPassFrom,omitempty" json:"authPassFrom,omitempty"`
	UnicastPeers    []string       `yaml:"unicastPeers,omitempty" json:"unicastPeers,omitempty"`
}

// On reports whether HA is enabled.
func (h HA) On() bool { return h.Enabled != nil && *h.Enabled }

// WireGuard is one host overlay interface, rendered for wg-quick.
type WireGuard struct {
	Name           string         `yaml:"name" json:"name"`
	Address        AddressList    `yaml:"address" json:"address"`
	ListenPort     *int           `yaml:"listenPort,omitempty" json:"listenPort,omitempty"`
	MTU            *int           `yaml:"mtu,omitempty" json:"mtu,omitempty"`
	NodeAddress    bool           `yaml:"nodeAddress,omitempty" json:"nodeAddress,omitempty"`
	PrivateKey     *secret.Value  `yaml:"privateKey,omitempty" json:"privateKey,omitempty"`
	PrivateKeyFrom *secret.Source `yaml:"privateKeyFrom,omitempty" json:"privateKeyFrom,omitempty"`
	Peers          []Peer         `yaml:"peers,omitempty" json:"peers,omitempty"`
}

// AddressList is one CIDR or a list of them; the first is the node address.
// A scalar in the document decodes as a list of one.
type AddressList []string

// Peer is one WireGuard peer of an interface.
type Peer struct {
	PublicKey           string         `yaml:"publicKey" json:"publicKey"`
	Endpoint            string         `yaml:"endpoint,omitempty" json:"endpoint,omitempty"`
	AllowedIPs          []string       `yaml:"allowedIPs" json:"allowedIPs"`
	PersistentKeepalive *int           `yaml:"persistentKeepalive,omitempty" json:"persistentKeepalive,omitempty"`
	PresharedKey        *secret.Value  `yaml:"presharedKey,omitempty" json:"presharedKey,omitempty"`
	PresharedKeyFrom    *secret.Source `yaml:"presharedKeyFrom,omitempty" json:"presharedKeyFrom,omitempty"`
}

// Firewall is the guard for the role's k0s ports.
type Firewall struct {
	ClusterPorts ClusterPorts `yaml:"clusterPorts,omitempty" json:"clusterPorts,omitempty"`
	PublicPorts  []int        `yaml:"publicPorts,omitempty" json:"publicPorts,omitempty"`
}

// ClusterPorts says who may reach the role's k0s ports.
type ClusterPorts string

const (
	ClusterPortsOpen    ClusterPorts = "open"
	ClusterPortsOverlay ClusterPorts = "overlay"
)

// K0s holds the escape hatch into the rendered k0s.yaml.
type K0s struct {
	// Patch is deep-merged into the rendered k0s.yaml last.
	Patch map[string]any `yaml:"patch,omitempty" json:"patch,omitempty"`
}
