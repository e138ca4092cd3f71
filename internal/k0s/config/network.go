package config

// Network is what k0s and the components it runs will do with the
// cluster's network, read from an effective ClusterConfig (ReadNetwork): the
// ranges, the CNI and how it carries pods between nodes, and the ports k0s's
// components listen on at every address of the node.
type Network struct {
	Provider    string
	PodCIDR     string
	ServiceCIDR string
	// DualStack is spec.network.dualStack.enabled, with its IPv6 ranges.
	DualStack       bool
	IPv6PodCIDR     string
	IPv6ServiceCIDR string
	// PrimaryAddressFamily is spec.network.primaryAddressFamily, IPv4 or
	// IPv6; "" leaves it to k0s (see NodeFamilies).
	PrimaryAddressFamily string
	// Storage is spec.storage.type.
	Storage string

	// APIPort is kube-apiserver's (spec.api.port), JoinAPIPort k0s's own
	// join API (spec.api.k0sApiPort), KonnectivityPort the konnectivity
	// server's agent port (spec.konnectivity.agentPort).
	APIPort, JoinAPIPort, KonnectivityPort int
	// ProxyPort is the port of the control-plane load balancer's userspace
	// proxy to the API servers, 0 when it does not run (see cplbProxy).
	ProxyPort int
	// NLLB is spec.network.nodeLocalLoadBalancing.enabled: workers run a
	// load balancer to the API servers, and the konnectivity agent in the
	// host network beside it.
	NLLB bool

	Calico     Calico
	KubeRouter KubeRouter
	// KubeProxy is nil when kube-proxy is disabled.
	KubeProxy *KubeProxy

	fields []string // the paths ReadNetwork read, in order
}

// Calico is spec.network.calico as calico-node runs it.
type Calico struct {
	// Mode is vxlan, ipip or bird (pkg/apis/k0s/v1beta1/calico.go:25-33).
	Mode string
	// VXLANPort is Felix's VXLAN port in vxlan mode.
	VXLANPort int
	// WireGuard is calico's own WireGuard encryption (wireguard.cali).
	WireGuard bool
}

// KubeRouter is kube-router's routing as its flags end up: k0s's
// spec.network.kuberouter fields, then extraArgs over them, then rawArgs
// (k0s v1.36.3+k0s.0 pkg/component/controller/kuberouter.go:111-151).
type KubeRouter struct {
	// Overlay is --enable-overlay: tunnels to other nodes' pods.
	Overlay bool
	// Encap is --overlay-encap: ipip, or fou (IP-in-IP inside UDP on
	// EncapPort).
	Encap     string
	EncapPort int
	// BGPPort is --bgp-port, where kube-router's BGP server listens.
	BGPPort int
	// MetricsPort is --metrics-port, 0 when metrics are off.
	MetricsPort int
	// HealthPort is --health-port, 0 when the health server is off.
	HealthPort int
}

// KubeProxy is what kube-proxy listens on beyond the node itself: each port
// 0 when its bind address is a loopback one.
type KubeProxy struct {
	MetricsPort, HealthzPort int
}

// Fields are the ClusterConfig paths the facts were read from, dotted
// ("spec.network.calico.vxlanPort"). What is derived from Network depends on
// these and nothing else of the file.
func (n Network) Fields() []string { return n.fields }
