package bootstrap

import (
	"bytes"
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
)

// refuseAgain lists the fields whose change a joined node cannot take:
// its role, its cluster, the cluster's network and datastore, how it joined,
// its Kubernetes node name, and anything that moves its node address (etcd
// peers and the API advertise it; changing it after the join breaks the
// cluster). Each entry is "field: was X, now Y"; secrets are compared only
// by reference, never printed.
func refuseAgain(root rootfs.Root, old *schema.Config, cfg *schema.Config, eff k0s.Effective, facts *hostfacts.Facts) []string {
	var out []string
	diff := func(path string, was, now any) {
		if a, b := show(was), show(now); a != b {
			out = append(out, fmt.Sprintf("%s: was %s, now %s", path, a, b))
		}
	}
	diff("role", old.Role, cfg.Role)
	diff("cluster.name", old.Cluster.Name, cfg.Cluster.Name)
	diff("cluster.endpoint", old.Cluster.Endpoint, cfg.Cluster.Endpoint)
	diff("cluster.subjectAltNames", old.Cluster.SubjectAltNames, cfg.Cluster.SubjectAltNames)
	diff("network.podCIDR", old.Network.PodCIDR, cfg.Network.PodCIDR)
	diff("network.serviceCIDR", old.Network.ServiceCIDR, cfg.Network.ServiceCIDR)
	diff("network.cni", old.Network.CNI, cfg.Network.CNI)
	diff("storage.type", old.Storage.Type, cfg.Storage.Type)
	diff("join.token", presence(old.Join.Token != nil), presence(cfg.Join.Token != nil))
	diff("join.tokenFrom", old.Join.TokenFrom, cfg.Join.TokenFrom)
	diff("node.name", old.Node.Name, cfg.Node.Name)

	oldIdx, newIdx := nodeAddressInterface(old), nodeAddressInterface(cfg)
	switch {
	case oldIdx < 0 && newIdx < 0:
	case oldIdx < 0 || newIdx < 0 || old.WireGuard[oldIdx].Name != cfg.WireGuard[newIdx].Name:
		out = append(out, fmt.Sprintf("wireguard[].nodeAddress: was on %s, now on %s", ifaceName(old, oldIdx), ifaceName(cfg, newIdx)))
	default:
		diff(finding.Path("wireguard").Index(newIdx).Field("address").Index(0).String(), first(old.WireGuard[oldIdx].Address), first(cfg.WireGuard[newIdx].Address))
	}
	if was, ok, _ := store.ReadNodeAddress(root); ok && newIdx < 0 && facts != nil {
		d := render.SelectNodeAddress(cfg, eff, facts)
		if d.Address.IsValid() && d.Address != was {
			out = append(out, fmt.Sprintf("node address (%s): was %s, now %s", d.Source, was, d.Address))
		}
	}
	return out
}

// readApplied reads the configuration the last run applied; an again
// run compares against it. The error reads as a refusal ("PATH: why").
func readApplied(root rootfs.Root) (*schema.Config, error) {
	old, err := store.ReadApplied(root)
	if err != nil {
		return nil, fmt.Errorf("%s: the applied configuration, which apply --again compares against, is unusable (%w)", status.AppliedPath, err)
	}
	return old, nil
}

// presence stands in for an inline secret, whose value is never shown.
func presence(set bool) string {
	if set {
		return "set (inline)"
	}
	return ""
}

func nodeAddressInterface(cfg *schema.Config) int {
	for i, wg := range cfg.WireGuard {
		if wg.NodeAddress {
			return i
		}
	}
	return -1
}

func ifaceName(cfg *schema.Config, i int) string {
	if i < 0 {
		return "no wireguard interface"
	}
	return cfg.WireGuard[i].Name
}

func first(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return l[0]
}

// show renders a value for a refusal message. Secret values print as
// [redacted] through their own marshalling.
func show(v any) string {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	_ = enc.Encode(v)
	_ = enc.Close()
	s := strings.TrimSpace(buf.String())
	if s == "" || s == "null" || s == `""` || s == "[]" {
		return "unset"
	}
	return strings.Join(strings.Fields(s), " ")
}

func joinFields(refusals []string) string {
	fields := make([]string, 0, len(refusals))
	for _, r := range refusals {
		f, _, _ := strings.Cut(r, ": ")
		fields = append(fields, f)
	}
	return strings.Join(fields, ", ")
}
