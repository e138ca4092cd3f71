package render

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
	"github.com/corium/corium-agent/internal/k0s/rules"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// K0sConfigPath is where the controller's ClusterConfig is written; only
// root may read it, since it carries the VRRP password and kine's
// datasource URL.
const K0sConfigPath = rules.DefaultConfigPath

// K0sInputs is what the ClusterConfig needs beyond the document: the node
// address (decided by the overlay step, never re-derived here) and the
// document's secrets, resolved.
type K0sInputs struct {
	// NodeAddress is the bare address the node registers; "" when it is
	// decided at boot.
	NodeAddress string
	// SecondAddress is the node's address of the other family in a
	// dual-stack cluster (Decision.Second), "" otherwise: a name of the
	// API's certificate beside NodeAddress.
	SecondAddress string
	// Secrets are the document's secrets, resolved (ConfiguredSecrets),
	// keyed by each one's field path (schema.SecretField.Path:
	// schema.AuthPassPath, schema.DataSourcePath). The file looks up what
	// it places by path (secretAt), so a secret of k0s.yaml added to the
	// contract needs no field here and no line in RenderNode.
	Secrets Secrets
	// VRRP is where keepalived runs (ChooseVRRP); the zero value renders
	// ha.interface and ha.unicastPeers as the document gives them, with no
	// unicast source.
	VRRP VRRP
	// OverlayMTU is the MTU the wg-quick file of the node address's
	// interface states (InterfaceMTU); the CNI's MTU is derived from it.
	// Required when the node address is on the overlay.
	OverlayMTU int
}

// RenderK0sConfig renders /etc/k0s/k0s.yaml for a controller role. The
// bytes depend only on the config and the inputs: two controllers with the
// same document differ only where their own address appears.
//
// The file is the document's effective configuration (eff, computed once
// for the document: the value validation, the guard and the checks read
// too) with the node's own
// part merged under k0s.patch (k0s.Effective.Node). The node's part sets no
// network fact, so the file's network is the one they read (the tests hold
// it to that).
func RenderK0sConfig(cfg *schema.Config, eff k0s.Effective, in K0sInputs) ([]byte, error) {
	if wg := OverlayOfNodeAddress(cfg); wg != nil && in.OverlayMTU <= 0 {
		return nil, fmt.Errorf("rendering %s: no MTU decided for %s, the node address's interface; decide it with InterfaceMTU, as the wg-quick file does", K0sConfigPath, wg.Name)
	}
	node := k0syaml.Node{
		API:     k0sAPI(cfg, in.NodeAddress, in.SecondAddress),
		Storage: k0sStorage(cfg, in),
		Network: k0sNetwork(cfg, eff.Network, in),
	}
	out, err := k0syaml.Marshal(plan.Managed("#"), eff.Node(node.Tree()))
	if err != nil {
		return nil, fmt.Errorf("rendering %s: %w", K0sConfigPath, err)
	}
	return out, nil
}

// secretAt is the resolved value of the secret at path (a
// schema.SecretField.Path); zero when the document sets none.
func (in K0sInputs) secretAt(path string) secret.Value { return in.Secrets[path] }

// ConfiguredSecrets are the secrets cfg sets, each resolved (from secrets,
// keyed as Secrets says, or inline) and keyed by its field's path, as
// K0sInputs takes them. A secret whose source is not resolved is left out.
func ConfiguredSecrets(cfg *schema.Config, secrets Secrets) Secrets {
	out := Secrets{}
	for _, f := range schema.SecretFields(cfg) {
		if v, ok := lookupSecret(secrets, f.Path, f.Inline); ok {
			out[f.Path] = v
		}
	}
	return out
}

// k0sAPI is spec.api; nil when the address is decided at boot and there
// is no endpoint: k0s fills api in. The API address is the node address,
// of the primary family; the names on its certificate are the endpoint,
// the node's address of each family (second is the other family's in a
// dual-stack cluster, "" otherwise), so that clients reach the API at
// either, and cluster.subjectAltNames. k0s signs the certificate for
// api.address and api.sans (k0s v1.36.3+k0s.0 cmd/controller/
// certificates.go:241-245); the agent's sans replace nothing k0s would
// add but the addresses it detects itself.
func k0sAPI(cfg *schema.Config, addr, second string) *k0syaml.API {
	api := k0syaml.API{Address: addr, ExternalAddress: cfg.Cluster.Endpoint}
	seen := map[string]bool{}
	for _, s := range append([]string{cfg.Cluster.Endpoint, addr, second}, cfg.Cluster.SubjectAltNames...) {
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		api.SANs = append(api.SANs, s)
	}
	if api.Address == "" && api.ExternalAddress == "" && len(api.SANs) == 0 {
		return nil
	}
	return &api
}

// k0sStorage is the node's part of spec.storage: etcd's peer address, or
// kine's database. sqlite is kine without a datasource: k0s then takes its
// default, a file under its data dir (storage.go DefaultKineConfig).
func k0sStorage(cfg *schema.Config, in K0sInputs) k0syaml.Storage {
	switch {
	case cfg.Storage.Type == schema.StorageEtcd && in.NodeAddress != "":
		return k0syaml.Storage{Etcd: &k0syaml.Etcd{PeerAddress: in.NodeAddress}}
	case cfg.Storage.Type == schema.StorageKine:
		return k0syaml.Storage{Kine: &k0syaml.Kine{DataSource: in.secretAt(schema.DataSourcePath)}}
	}
	return k0syaml.Storage{}
}

// k0sNetwork is the node's part of spec.network: the CNI's MTU, derived
// from the overlay's, and the VRRP instance.
func k0sNetwork(cfg *schema.Config, network config.Network, in K0sInputs) k0syaml.Network {
	var net k0syaml.Network
	if OverlayOfNodeAddress(cfg) != nil {
		// The file's own MTU, derived or configured, never a guess at
		// what wg-quick would pick.
		mtu := in.OverlayMTU
		v6 := cniOverIPv6(in.NodeAddress, network)
		switch cfg.Network.CNI {
		case schema.CNIKubeRouter, "":
			overhead, _, _ := config.EncapOverhead(config.ProviderKubeRouter, v6)
			net.KubeRouter = &k0syaml.KubeRouter{AutoMTU: false, MTU: mtu - overhead}
		case schema.CNICalico:
			overhead, _, _ := config.EncapOverhead(config.ProviderCalico, v6)
			net.Calico = &k0syaml.Calico{MTU: mtu - overhead}
		}
	}
	if cfg.HA.On() {
		net.ControlPlaneLoadBalancing = k0sCPLB(cfg, in)
	}
	return net
}

// cniOverIPv6 says pods' packets between nodes travel in the CNI's IPv6
// tunnels: the node address is IPv6, or pods have IPv6 addresses (their
// tunnels are IPv6 whatever the node address's family). The CNI takes one
// MTU for both families, so it must fit the larger IPv6 overhead.
func cniOverIPv6(nodeAddress string, net config.Network) bool {
	return isIPv6(nodeAddress) || net.IPv6Pods()
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
