package k0syaml

import "github.com/corium/corium-agent/internal/secret"

// Node is the agent's part of the ClusterConfig's spec: what render sets
// for this node, under k0s.patch. The JSON names are k0s's
// (pkg/apis/k0s/v1beta1 at v1.36.3+k0s.0) and are the paths Parse and
// Redact read; a nil pointer or an empty field is a key render does not
// write. Every secret.Value field is a secret of the file.
type Node struct {
	API     *API    `json:"api,omitempty"`
	Storage Storage `json:"storage"`
	Network Network `json:"network"`
}

// API is spec.api: the address the node serves the API on, the endpoint
// clients use, and the certificate's names.
type API struct {
	Address         string   `json:"address,omitempty"`
	ExternalAddress string   `json:"externalAddress,omitempty"`
	SANs            []string `json:"sans,omitempty"`
}

// Storage is spec.storage: etcd's peer address, or kine's database; neither
// leaves k0s its defaults.
type Storage struct {
	Etcd *Etcd `json:"etcd,omitempty"`
	Kine *Kine `json:"kine,omitempty"`
}

// Etcd is spec.storage.etcd.
type Etcd struct {
	PeerAddress string `json:"peerAddress"`
}

// Kine is spec.storage.kine. DataSource is a URL with the database's
// password in it (k0s KineConfig.DataSource).
type Kine struct {
	DataSource secret.Value `json:"dataSource" secret:"datasource"`
}

// Network is spec.network: the CNI's MTU and the control plane's load
// balancing.
type Network struct {
	KubeRouter                *KubeRouter `json:"kuberouter,omitempty"`
	Calico                    *Calico     `json:"calico,omitempty"`
	ControlPlaneLoadBalancing *CPLB       `json:"controlPlaneLoadBalancing,omitempty"`
}

// KubeRouter is spec.network.kuberouter.
type KubeRouter struct {
	AutoMTU bool `json:"autoMTU"`
	MTU     int  `json:"mtu"`
}

// Calico is spec.network.calico.
type Calico struct {
	MTU int `json:"mtu"`
}

// CPLB is spec.network.controlPlaneLoadBalancing.
type CPLB struct {
	Enabled    bool        `json:"enabled"`
	Type       string      `json:"type"`
	Keepalived *Keepalived `json:"keepalived,omitempty"`
}

// Keepalived is CPLB's keepalived.
type Keepalived struct {
	VRRPInstances []VRRPInstance `json:"vrrpInstances"`
}

// VRRPInstance is one of keepalived's vrrpInstances. AuthPass is the VRRP
// password (k0s KeepalivedVRRPInstance.AuthPass). UnicastPeers nil is no
// key; empty is the key with an empty list (the node was the only peer).
type VRRPInstance struct {
	VirtualIPs      []string     `json:"virtualIPs"`
	AuthPass        secret.Value `json:"authPass" secret:"password"`
	Interface       string       `json:"interface,omitempty"`
	VirtualRouterID *int         `json:"virtualRouterID,omitempty"`
	UnicastSourceIP string       `json:"unicastSourceIP,omitempty"`
	UnicastPeers    []string     `json:"unicastPeers,omitzero"`
}

// FreeTextSecretKeys are the keys whose values are secrets in what the
// file holds beyond Node (k0s.patch's values): a helm repository's
// password (k0s Repository.Password). The codec does not model that text;
// Redact and RedactedPatch hide these keys' values in it at any depth and
// whatever their case, as k0s reads them.
var FreeTextSecretKeys = []string{"password"}
