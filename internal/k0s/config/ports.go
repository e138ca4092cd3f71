package config

// The ports of k0s v1.36.3+k0s.0 and its components where a ClusterConfig
// leaves them unset (ReadNetwork's defaults), and those a ClusterConfig
// cannot move. The role port set (k0s.Ports) and the guard
// take them from here, through Network or these names.
const (
	// pkg/apis/k0s/v1beta1/api.go setDefaults.
	DefaultAPIPort     = 6443
	DefaultJoinAPIPort = 9443
	// konnectivity.go:33-37 DefaultKonnectivitySpec.
	DefaultKonnectivityPort = 8132
	// cplb.go:60-62, 346-350: the load balancer's userspace proxy.
	DefaultProxyPort = 6444
	// calico.go:68-77 DefaultCalico.
	DefaultCalicoVXLANPort = 4789
	// BGPPort is BGP's, where calico's bird and kube-router peer
	// (kube-router's --bgp-port default).
	BGPPort = 179
	// KubeletPort is the kubelet's own default, which k0s does not change.
	KubeletPort = 10250
	// EtcdPeerPort is where k0s's etcd listens for its peers
	// (pkg/apis/k0s/v1beta1/storage.go:201-204).
	EtcdPeerPort = 2380
	// KineMetricsPort is where k0s has kine serve its metrics, on every
	// address (pkg/component/controller/kine.go:114-115).
	KineMetricsPort = 2380
	// DefaultKubeRouterHealthPort is kube-router's --health-port default,
	// which k0s does not set (kube-router v2.10.0 pkg/options/options.go:14).
	DefaultKubeRouterHealthPort = 20244
	// FelixMetricsPort is Felix's Prometheus port, which k0s turns on
	// (static/manifests/calico/DaemonSet/calico-node.yaml:28, 271-272).
	FelixMetricsPort = 9091
	// KonnectivityAgentHealthPort is the konnectivity agent's health port,
	// on every address (apiserver-network-proxy v0.36.0
	// cmd/agent/app/options/options.go:275-276).
	KonnectivityAgentHealthPort = 8093
)
