package schema

import (
	"fmt"
	"net/netip"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
)

// OverlayMTU is the MTU of the interface carrying the node address, as the
// caller knows it: stated (wireguard[].mtu) or derived (render's
// InterfaceMTU, on the host's facts).
type OverlayMTU struct {
	// Index is the interface's index in wireguard.
	Index int
	Value int
	// Why says where a derived value comes from; "" when it is stated.
	Why string
}

// CNIMTUOverOverlay refuses a CNI MTU that k0s.patch sets larger than the
// overlay lets a pod's packet have: over WireGuard the CNI encapsulates
// every packet between nodes, and a pod packet that fits the CNI's MTU must
// still fit the overlay's once wrapped. nodeAddress is the node address
// (bare), which with the pod range says whether the CNI's tunnels are IPv6.
// It is one check for validate (against a stated mtu) and for render
// (against the derived one), so both say the same. ok is false when the
// patch sets no CNI MTU, or one that fits.
func CNIMTUOverOverlay(cfg *Config, eff k0s.Effective, nodeAddress string, overlay OverlayMTU) (finding.Finding, bool) {
	provider := eff.Network.Provider
	set, ok := config.SetCNIMTU(eff.Config, provider)
	if !ok || !cfg.Role.IsController() {
		return finding.Finding{}, false
	}
	a, err := netip.ParseAddr(nodeAddress)
	v6 := (err == nil && a.Is6() && !a.Is4In6()) || eff.Network.IPv6Pods()
	overhead, encap, known := config.EncapOverhead(provider, v6)
	most := overlay.Value - overhead
	if !known || set.MTU <= most {
		return finding.Finding{}, false
	}
	what := finding.Path("wireguard").Index(overlay.Index).Field("mtu").String()
	derived := ""
	if overlay.Why != "" {
		name := cfg.WireGuard[overlay.Index].Name
		what, derived = name+"'s MTU", fmt.Sprintf(" (%s's MTU, unset, is %s)", name, overlay.Why)
	}
	return finding.Finding{
		Path:     PatchPath(cfg.K0s.Patch, set.Path),
		Severity: finding.Error,
		Message: fmt.Sprintf("is %d, larger than the %d a pod's packet may have over the overlay: %s, %d, less %d for %s's %s between nodes; set it to at most %d, or remove it from k0s.patch and the agent derives it%s",
			set.MTU, most, what, overlay.Value, overhead, providerName(provider), encap, most, derived),
	}, true
}

func providerName(p string) string {
	if p == config.ProviderKubeRouter {
		return "kube-router"
	}
	return p
}

// cniMTU checks a CNI MTU k0s.patch sets against a stated mtu of the node
// address's interface; a derived one is render's to check, on the host's
// facts (validate --facts, plan, apply).
func (v *crossCheck) cniMTU() {
	if len(v.cfg.K0s.Patch) == 0 {
		return
	}
	for i, wg := range v.eff.WireGuard {
		if !wg.NodeAddress || wg.MTU == nil || len(wg.Address) == 0 {
			continue
		}
		addr, _, _ := strings.Cut(wg.Address[0], "/")
		if f, bad := CNIMTUOverOverlay(v.eff, v.k0s, addr, OverlayMTU{Index: i, Value: *wg.MTU}); bad && !v.patchRefused[f.Path] {
			v.errorf(f.Path, "%s", f.Message)
		}
	}
}
