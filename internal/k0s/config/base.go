package config

// The providers k0s knows (spec.network.provider; k0s v1.36.3+k0s.0
// pkg/constant/constant.go CNIProviderKubeRouter, CNIProviderCalico, and
// "custom" in pkg/apis/k0s/v1beta1/network.go Validate).
const (
	ProviderKubeRouter = "kuberouter"
	ProviderCalico     = "calico"
	ProviderCustom     = "custom"
)

// The datastores k0s knows (spec.storage.type; k0s v1.36.3+k0s.0
// pkg/apis/k0s/v1beta1/storage.go EtcdStorageType, KineStorageType).
const (
	StorageEtcd = "etcd"
	StorageKine = "kine"
)

// BaseInput is what the agent's ClusterConfig takes from the document
// itself, with its defaults applied.
type BaseInput struct {
	Name        string // metadata.name
	Provider    string // spec.network.provider
	PodCIDR     string
	ServiceCIDR string
	// Storage is spec.storage.type: StorageEtcd or StorageKine.
	Storage string
	// OnOverlay says the node address is on a WireGuard interface, so the
	// CNI must encapsulate between every pair of nodes.
	OnOverlay bool
	// HA turns on k0s's control-plane load balancing, with one VRRP
	// instance holding VirtualIP.
	HA        bool
	VirtualIP string
}

// Base is the ClusterConfig the agent derives from the document alone,
// before the node's own addresses, MTUs and secrets are added (render's) and
// before k0s.patch is merged. Every network fact the agent's part of the
// file decides is here, so that validation, which has no node, reads the
// same facts as the node.
func Base(in BaseInput) map[string]any {
	network := map[string]any{
		"podCIDR":     in.PodCIDR,
		"serviceCIDR": in.ServiceCIDR,
		"provider":    in.Provider,
	}
	if in.OnOverlay {
		switch in.Provider {
		case ProviderKubeRouter:
			// IP-in-IP between every pair of nodes, not only across
			// subnets: WireGuard accepts a packet only when its source is
			// in the peer's allowedIPs, which hold node addresses.
			network["kuberouter"] = map[string]any{"extraArgs": map[string]any{
				"enable-overlay": "true",
				"overlay-type":   "full",
			}}
		case ProviderCalico:
			// calico-node picks its own address with first-found unless
			// told, which is the underlay's eth0: VXLAN would run there,
			// unencrypted and dropped by the guard. kubernetes-internal-ip
			// takes the Node's InternalIP, which is the node address the
			// agent decided and hands the kubelet as --node-ip, so calico
			// follows that one decision instead of matching interface
			// names. k0s passes the method through as
			// IP_AUTODETECTION_METHOD, and uses it for IPv6 too when no
			// IPv6 method is set (k0s v1.36.3+k0s.0
			// pkg/component/controller/calico.go:296,
			// static/manifests/calico/DaemonSet/calico-node.yaml:204).
			network["calico"] = map[string]any{
				"mode":                  "vxlan",
				"overlay":               "Always",
				"ipAutodetectionMethod": "kubernetes-internal-ip",
			}
		}
	}
	if in.HA {
		// The VRRP instance's other fields are the node's and its
		// password's (render); whether there is one decides the proxy.
		network["controlPlaneLoadBalancing"] = map[string]any{
			"enabled":    true,
			"type":       "Keepalived",
			"keepalived": map[string]any{"vrrpInstances": []any{map[string]any{"virtualIPs": []any{in.VirtualIP}}}},
		}
	}
	return map[string]any{
		"apiVersion": "k0s.k0sproject.io/v1beta1",
		"kind":       "ClusterConfig",
		"metadata":   map[string]any{"name": in.Name},
		"spec": map[string]any{
			"network":   network,
			"storage":   map[string]any{"type": in.Storage},
			"telemetry": map[string]any{"enabled": false},
		},
	}
}
