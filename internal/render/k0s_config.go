package render

import (
	"bytes"
	"fmt"
	"net/netip"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// K0sConfigPath is where the controller's ClusterConfig is written; only
// root may read it, since it carries the VRRP password.
const K0sConfigPath = "/etc/k0s/k0s.yaml"

// k0sSecretKeys are the ClusterConfig keys that carry credentials: the
// agent's own keepalived authPass, and what k0s.patch may add — kine's
// dataSource (a DSN with its password) and a helm repository's password
// (k0s pkg/apis/k0s/v1beta1: KeepalivedVRRPInstance.AuthPass,
// KineConfig.DataSource, Repository.Password).
var k0sSecretKeys = []string{"authPass", "dataSource", "password"}

// Encapsulation overheads subtracted from the overlay MTU so that a pod
// packet, once wrapped by the CNI and then by WireGuard, still fits.
const (
	ipipOverhead4 = 20
	// kube-router makes its IPv6 tunnels as ip6tnl links without the
	// "ignore encapsulation limit" flag (kube-router v2.10.0
	// pkg/tunnels/linux_tunnels.go:297 createIPIPTunnel, netlink.Ip6tnl
	// with no EncapLimit or Flags), so the kernel adds the 8-byte tunnel
	// encapsulation limit option to the 40-byte IPv6 header.
	ipipOverhead6  = 48
	vxlanOverhead4 = 50
	vxlanOverhead6 = 70
)

// K0sInputs is what the ClusterConfig needs beyond the document: the node
// address (decided by the overlay step, never re-derived here) and the
// resolved VRRP password.
type K0sInputs struct {
	// NodeAddress is the bare address the node registers; "" when it is
	// decided at boot.
	NodeAddress string
	// AuthPass is ha.authPass or ha.authPassFrom, resolved.
	AuthPass secret.Value
	// UnicastSource is this node's address on the VRRP interface (see
	// VRRPUnicastSource); "" lets keepalived take the interface's primary.
	UnicastSource string
	// OverlayMTU is the MTU the wg-quick file of the node address's
	// interface states (InterfaceMTU); the CNI's MTU is derived from it.
	// Required when the node address is on the overlay.
	OverlayMTU int
}

// RenderK0sConfig renders /etc/k0s/k0s.yaml for a controller role. The
// bytes depend only on the config and the inputs: two controllers with the
// same document differ only where their own address appears.
func RenderK0sConfig(cfg *schema.Config, in K0sInputs) ([]byte, error) {
	if wg := OverlayOfNodeAddress(cfg); wg != nil && in.OverlayMTU <= 0 {
		return nil, fmt.Errorf("rendering %s: no MTU decided for %s, the node address's interface; decide it with InterfaceMTU, as the wg-quick file does", K0sConfigPath, wg.Name)
	}
	spec := map[string]any{
		"network":   k0sNetwork(cfg, in),
		"storage":   k0sStorage(cfg, in.NodeAddress),
		"telemetry": map[string]any{"enabled": false},
	}
	// With the address decided at boot and no endpoint, k0s fills api in.
	if api := k0sAPI(cfg, in.NodeAddress); len(api) > 0 {
		spec["api"] = api
	}
	doc := map[string]any{
		"apiVersion": "k0s.k0sproject.io/v1beta1",
		"kind":       "ClusterConfig",
		"metadata":   map[string]any{"name": cfg.Cluster.Name},
		"spec":       spec,
	}
	if cfg.K0s.Patch != nil {
		doc = deepMerge(doc, cfg.K0s.Patch)
	}
	var buf bytes.Buffer
	buf.WriteString(rootfs.Managed("#"))
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", K0sConfigPath, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("rendering %s: %w", K0sConfigPath, err)
	}
	return buf.Bytes(), nil
}

func k0sAPI(cfg *schema.Config, addr string) map[string]any {
	api := map[string]any{}
	if addr != "" {
		api["address"] = addr
	}
	if cfg.Cluster.Endpoint != "" {
		api["externalAddress"] = cfg.Cluster.Endpoint
	}
	var sans []any
	seen := map[string]bool{}
	for _, s := range append([]string{cfg.Cluster.Endpoint, addr}, cfg.Cluster.SubjectAltNames...) {
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		sans = append(sans, s)
	}
	if len(sans) > 0 {
		api["sans"] = sans
	}
	return api
}

func k0sStorage(cfg *schema.Config, addr string) map[string]any {
	if cfg.Storage.Type == schema.StorageSQLite {
		return map[string]any{"type": "kine"}
	}
	if addr == "" {
		return map[string]any{"type": "etcd"}
	}
	return map[string]any{"type": "etcd", "etcd": map[string]any{"peerAddress": addr}}
}

func k0sNetwork(cfg *schema.Config, in K0sInputs) map[string]any {
	provider := string(cfg.Network.CNI)
	if provider == "" {
		provider = string(schema.CNIKubeRouter)
	}
	net := map[string]any{
		"podCIDR":     cfg.Network.PodCIDR,
		"serviceCIDR": cfg.Network.ServiceCIDR,
		"provider":    provider,
	}
	if OverlayOfNodeAddress(cfg) != nil {
		// The file's own MTU, derived or configured, never a guess at
		// what wg-quick would pick.
		mtu := in.OverlayMTU
		v6 := isIPv6(in.NodeAddress)
		switch cfg.Network.CNI {
		case schema.CNIKubeRouter, "":
			overhead := ipipOverhead4
			if v6 {
				overhead = ipipOverhead6
			}
			// IP-in-IP between every pair of nodes, not only across
			// subnets: WireGuard accepts a packet only when its source is
			// in the peer's allowedIPs, which hold node addresses.
			net["kuberouter"] = map[string]any{
				"autoMTU": false,
				"mtu":     mtu - overhead,
				"extraArgs": map[string]any{
					"enable-overlay": "true",
					"overlay-type":   "full",
				},
			}
		case schema.CNICalico:
			overhead := vxlanOverhead4
			if v6 {
				overhead = vxlanOverhead6
			}
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
			net["calico"] = map[string]any{
				"mode":                  "vxlan",
				"overlay":               "Always",
				"mtu":                   mtu - overhead,
				"ipAutodetectionMethod": "kubernetes-internal-ip",
			}
		}
	}
	if cfg.HA.On() {
		net["controlPlaneLoadBalancing"] = k0sCPLB(cfg, in)
	}
	return net
}

// OverlayOfNodeAddress is the wireguard interface whose first address is the
// node address, or nil when the node address is not on the overlay.
func OverlayOfNodeAddress(cfg *schema.Config) *schema.WireGuard {
	for i := range cfg.WireGuard {
		if cfg.WireGuard[i].NodeAddress {
			return &cfg.WireGuard[i]
		}
	}
	return nil
}

func isIPv6(addr string) bool {
	a, err := netip.ParseAddr(strings.TrimSpace(addr))
	return err == nil && a.Is6() && !a.Is4In6()
}

// deepMerge merges patch into base: maps merge key by key, everything else
// (scalars, lists, a map replacing a scalar) replaces. base is not modified.
func deepMerge(base, patch map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(patch))
	for k, v := range base {
		out[k] = v
	}
	for k, pv := range patch {
		bm, bok := asMap(out[k])
		pm, pok := asMap(pv)
		if bok && pok {
			out[k] = deepMerge(bm, pm)
			continue
		}
		out[k] = pv
	}
	return out
}

func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[fmt.Sprint(k)] = v
		}
		return out, true
	}
	return nil, false
}
