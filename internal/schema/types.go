package schema

import (
	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
)

// Config is the corium block, contract v1. A key added here is permanent: it
// ships to every node and must be supported forever.
//
// Pointers mark fields where "unset" and "zero" differ (an omitted listenPort
// is not port 0). Defaults are applied only by ApplyDefaults.
type Config struct {
	// Version of the contract; only 1 is accepted.
	Version *int `yaml:"version,omitempty" json:"version,omitempty" validate:"omitempty,eq=1"`
	// Role is what the node becomes.
	Role Role `yaml:"role" json:"role" validate:"required,oneof=single controller controller+worker worker"`
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
	WireGuard []WireGuard `yaml:"wireguard,omitempty" json:"wireguard,omitempty" validate:"dive"`
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
	Name string `yaml:"name,omitempty" json:"name,omitempty" validate:"omitempty,dnslabel"`
	// Endpoint is the host or IP clients and joiners use.
	Endpoint string `yaml:"endpoint,omitempty" json:"endpoint,omitempty" validate:"omitempty,hostorip"`
	// SubjectAltNames are extra API certificate names.
	SubjectAltNames []string `yaml:"subjectAltNames,omitempty" json:"subjectAltNames,omitempty" validate:"dive,hostorip"`
}

// Network holds the cluster's pod and service ranges and its CNI.
type Network struct {
	// PodCIDR is the pods' address range.
	PodCIDR string `yaml:"podCIDR,omitempty" json:"podCIDR,omitempty" validate:"omitempty,netprefix"`
	// ServiceCIDR is the services' address range; it must not overlap podCIDR.
	ServiceCIDR string `yaml:"serviceCIDR,omitempty" json:"serviceCIDR,omitempty" validate:"omitempty,netprefix"`
	// CNI is the cluster network provider.
	CNI CNI `yaml:"cni,omitempty" json:"cni,omitempty" validate:"omitempty,oneof=kuberouter calico custom"`
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
	// Type is the datastore: sqlite for single, else etcd. sqlite serves one
	// controller only (refused with ha.enabled or a join token); kine is an
	// external PostgreSQL or MySQL database several controllers share.
	Type StorageType `yaml:"type,omitempty" json:"type,omitempty" validate:"omitempty,oneof=etcd sqlite kine"`
	// DataSourceFrom fetches kine's datasource URL (postgres://...,
	// postgresql://... or mysql://...) at boot: it carries the database's
	// password, so it is a secret; required with kine, refused otherwise.
	DataSourceFrom *secret.Source `yaml:"dataSourceFrom,omitempty" json:"dataSourceFrom,omitempty" secret:"datasource"`
}

// StorageType names a datastore.
type StorageType string

const (
	StorageEtcd   StorageType = "etcd"
	StorageSQLite StorageType = "sqlite"
	StorageKine   StorageType = "kine"
)

// Join carries the k0s join token, inline (a liability) or from a SecretSource.
type Join struct {
	// Token is an inline k0s join token, a liability: it sits in the
	// document in clear. Its kind must match the role: a worker's
	// (k0s token create --role=worker) for a worker, a controller's
	// (--role=controller) for a joining controller or controller+worker.
	Token *secret.Value `yaml:"token,omitempty" json:"token,omitempty" secret:"token"`
	// TokenFrom fetches the join token at boot; at most one of token and
	// tokenFrom; a worker needs one and single refuses both. The token read
	// must be of the kind the role joins with, as for token.
	TokenFrom *secret.Source `yaml:"tokenFrom,omitempty" json:"tokenFrom,omitempty" secret:"token"`
}

// Node is this machine's name, labels and taints.
type Node struct {
	// Name is the Kubernetes node name and the hostname (an RFC 1123
	// subdomain; the hostname is its first label when it is longer than the
	// kernel's 64); unset keeps the hostname unless it is generic.
	Name string `yaml:"name,omitempty" json:"name,omitempty" validate:"omitempty,dnssubdomain"`
	// Labels are Kubernetes node labels.
	Labels map[string]string `yaml:"labels,omitempty" json:"labels,omitempty" validate:"dive,keys,qualifiedname,endkeys,labelvalue"`
	// Taints are Kubernetes node taints.
	Taints []Taint `yaml:"taints,omitempty" json:"taints,omitempty" validate:"dive"`
}

// Taint is a Kubernetes node taint.
type Taint struct {
	// Key is the taint's key, a Kubernetes qualified name.
	Key string `yaml:"key" json:"key" validate:"required,qualifiedname"`
	// Value is the taint's value, a Kubernetes label value.
	Value string `yaml:"value,omitempty" json:"value,omitempty" validate:"omitempty,labelvalue"`
	// Effect is what the taint does to pods that do not tolerate it.
	Effect string `yaml:"effect" json:"effect" validate:"required,oneof=NoSchedule PreferNoSchedule NoExecute"`
}

// HA is the control-plane virtual IP through k0s keepalived (VRRP).
type HA struct {
	// Enabled turns the virtual IP on; only for controller roles.
	Enabled *bool `yaml:"enabled,omitempty" json:"enabled,omitempty"`
	// VirtualIP is the address with prefix the controllers share; required
	// when enabled.
	VirtualIP string `yaml:"virtualIP,omitempty" json:"virtualIP,omitempty" validate:"omitempty,hostprefix"`
	// Interface is the VRRP interface: a host interface's name, or its MAC
	// address; unset, the agent takes the one whose route reaches the
	// unicast peers, or whose network holds the VIP.
	Interface string `yaml:"interface,omitempty" json:"interface,omitempty" validate:"omitempty,hostlink"`
	// VirtualRouterID is the VRRP router ID; unset lets k0s choose.
	VirtualRouterID *int `yaml:"virtualRouterID,omitempty" json:"virtualRouterID,omitempty" validate:"omitempty,min=1,max=255"`
	// AuthPass is the VRRP password inline (at most 8 characters, one word
	// of printable characters).
	AuthPass *secret.Value `yaml:"authPass,omitempty" json:"authPass,omitempty" validate:"omitempty,max=8,vrrppass" secret:"password"`
	// AuthPassFrom fetches the VRRP password at boot; exactly one of
	// authPass and authPassFrom when enabled.
	AuthPassFrom *secret.Source `yaml:"authPassFrom,omitempty" json:"authPassFrom,omitempty" secret:"password"`
	// UnicastPeers makes VRRP unicast: keepalived sends its adverts to the
	// addresses of the controllers that share the virtual IP, on the network
	// of the VRRP interface. Each controller's list plus its own address is
	// the same set on every controller with ha; the node's own addresses may
	// be in it (render drops them), so one list serves every controller. A controller at another site, without ha, is in no list.
	// Required when interface is a wireguard interface (multicast does not
	// cross a tunnel).
	UnicastPeers []string `yaml:"unicastPeers,omitempty" json:"unicastPeers,omitempty" validate:"dive,ipaddr"`
}

// On reports whether HA is enabled.
func (h HA) On() bool { return h.Enabled != nil && *h.Enabled }

// WireGuard is one host overlay interface, rendered for wg-quick.
type WireGuard struct {
	// Name is the interface name: unique, ^[a-z0-9][-a-z0-9]*$, at most 15
	// characters.
	Name string `yaml:"name" json:"name" validate:"required,ifname"`
	// Address is one address with prefix or a list (dual-stack); the first
	// is the node address, and in a dual-stack cluster the first of the
	// other family is the node's second address.
	Address AddressList `yaml:"address" json:"address" validate:"required,min=1,dive,hostprefix"`
	// ListenPort is the UDP port; omit it for a node nobody dials.
	ListenPort *int `yaml:"listenPort,omitempty" json:"listenPort,omitempty" validate:"omitempty,min=1,max=65535"`
	// MTU of the interface: 576 to 65535, at least 1280 with an IPv6 address;
	// unset, the smallest route MTU to the peers' endpoints (or the default
	// route's) less 80, as wg-quick derives it, written into the file.
	MTU *int `yaml:"mtu,omitempty" json:"mtu,omitempty" validate:"omitempty,min=576,max=65535"`
	// NodeAddress makes this interface's first address the one the node
	// registers; at most one interface.
	NodeAddress bool `yaml:"nodeAddress,omitempty" json:"nodeAddress,omitempty"`
	// PrivateKey is the interface's key inline (base64, 32 bytes), for labs:
	// it sits in the document in clear.
	PrivateKey *secret.Value `yaml:"privateKey,omitempty" json:"privateKey,omitempty" validate:"omitempty,wgkey" secret:"wireguard-key"`
	// PrivateKeyFrom fetches the private key at boot; exactly one of
	// privateKey and privateKeyFrom.
	PrivateKeyFrom *secret.Source `yaml:"privateKeyFrom,omitempty" json:"privateKeyFrom,omitempty" secret:"wireguard-key"`
	// PublicKey is this interface's own public key (base64, 32 bytes), so
	// other nodes' documents can be checked against it when the private key
	// comes from privateKeyFrom; it must be the key privateKey derives, and
	// at apply the resolved private key must derive it.
	PublicKey string `yaml:"publicKey,omitempty" json:"publicKey,omitempty" validate:"omitempty,wgkey"`
	// Peers are the other ends of the tunnel; WireGuard answers only known
	// peers, so an interface needs at least one.
	Peers []Peer `yaml:"peers,omitempty" json:"peers,omitempty" validate:"required,min=1,dive"`
}

// AddressList is one CIDR or a list of them; the first is the node address.
// A scalar in the document decodes as a list of one.
type AddressList []string

// UnmarshalYAML accepts a scalar as a list of one, for callers that decode
// with yaml.Unmarshal instead of Parse.
func (a *AddressList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*a = AddressList{n.Value}
		return nil
	}
	var list []string
	if err := n.Decode(&list); err != nil {
		return err
	}
	*a = list
	return nil
}

// Peer is one WireGuard peer of an interface.
type Peer struct {
	// PublicKey is the peer's key (base64, 32 bytes); unique within the
	// interface.
	PublicKey string `yaml:"publicKey" json:"publicKey" validate:"required,wgkey"`
	// Endpoint is host:port where the peer listens; an IP is recommended.
	Endpoint string `yaml:"endpoint,omitempty" json:"endpoint,omitempty" validate:"omitempty,hostport"`
	// AllowedIPs are the prefixes routed to and accepted from the peer; no
	// overlap between peers of one interface.
	AllowedIPs []string `yaml:"allowedIPs" json:"allowedIPs" validate:"required,min=1,dive,prefix"`
	// PersistentKeepalive sends a keepalive every so many seconds (1-65535).
	PersistentKeepalive *int `yaml:"persistentKeepalive,omitempty" json:"persistentKeepalive,omitempty" validate:"omitempty,min=1,max=65535"`
	// PresharedKey is an extra symmetric key inline (base64, 32 bytes).
	PresharedKey *secret.Value `yaml:"presharedKey,omitempty" json:"presharedKey,omitempty" validate:"omitempty,wgkey" secret:"wireguard-key"`
	// PresharedKeyFrom fetches the preshared key at boot; at most one of
	// presharedKey and presharedKeyFrom.
	PresharedKeyFrom *secret.Source `yaml:"presharedKeyFrom,omitempty" json:"presharedKeyFrom,omitempty" secret:"wireguard-key"`
}

// Firewall is the guard for the role's k0s ports.
type Firewall struct {
	// ClusterPorts: open, or overlay to accept the role's k0s ports only from
	// wireguard interfaces and loopback.
	ClusterPorts ClusterPorts `yaml:"clusterPorts,omitempty" json:"clusterPorts,omitempty" validate:"omitempty,oneof=open overlay"`
	// PublicPorts are ports of the role's set that stay reachable from
	// anywhere (e.g. 6443 for kubectl).
	PublicPorts []int `yaml:"publicPorts,omitempty" json:"publicPorts,omitempty" validate:"dive,min=1,max=65535"`
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
