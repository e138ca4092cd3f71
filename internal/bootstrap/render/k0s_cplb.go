package render

import (
	"fmt"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/k0syaml"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// k0sCPLB is k0s's control-plane load balancing: one keepalived VRRP
// instance holding the virtual IP, with k0s's userspace reverse proxy
// balancing the API behind it; no keepalived virtual servers, which would
// balance at the kernel's IPVS instead and bring nothing the proxy lacks.
func k0sCPLB(cfg *schema.Config, in K0sInputs) *k0syaml.CPLB {
	vrrp := k0syaml.VRRPInstance{
		VirtualIPs:      []string{cfg.HA.VirtualIP},
		AuthPass:        in.secretAt(schema.AuthPassPath),
		Interface:       in.VRRP.Interface,
		VirtualRouterID: cfg.HA.VirtualRouterID,
	}
	if vrrp.Interface == "" {
		vrrp.Interface = cfg.HA.Interface
	}
	if len(cfg.HA.UnicastPeers) > 0 {
		if in.VRRP.Source.IsValid() {
			vrrp.UnicastSourceIP = in.VRRP.Source.String()
		}
		// One list serves every controller: each drops itself from it
		// (ChooseVRRP); without a choice, the list as the document gives it.
		list := in.VRRP.Peers
		if list == nil {
			list = cfg.HA.UnicastPeers
		}
		vrrp.UnicastPeers = append(make([]string, 0, len(list)), list...)
	}
	return &k0syaml.CPLB{
		Enabled:    true,
		Type:       "Keepalived",
		Keepalived: &k0syaml.Keepalived{VRRPInstances: []k0syaml.VRRPInstance{vrrp}},
	}
}

// checkCPLB refuses, before anything is written, what k0s would refuse at
// `k0s install` or what would leave keepalived unable to start or reading
// another password: a resolved password over 8 characters or not one word
// of printable characters, which keepalived would cut or refuse where k0s
// writes it (the inline one is checked by validation, by the same rules),
// and a VRRP interface or unicast source that cannot be found (ChooseVRRP; k0s refuses unicast peers
// without a source, cplb.go:194-196: "UnicastPeers require a valid
// UnicastSourceIP"). It returns where keepalived runs.
func checkCPLB(cfg *schema.Config, authPass secret.Value, facts *hostfacts.Facts) (VRRP, error) {
	if !cfg.HA.On() {
		return VRRP{}, nil
	}
	if from := cfg.HA.AuthPassFrom; from != nil {
		pass := authPass.Reveal()
		if n := len(pass); n > schema.MaxAuthPassBytes {
			return VRRP{}, fmt.Errorf("ha.authPassFrom: the password read from %s is %d bytes; keepalived takes at most %d (k0s refuses a longer one at install)",
				from.Where(), n, schema.MaxAuthPassBytes)
		}
		if !schema.VRRPPassword(pass) {
			return VRRP{}, fmt.Errorf("ha.authPassFrom: the password read from %s is not %s",
				from.Where(), schema.VRRPPasswordRule)
		}
	}
	return ChooseVRRP(cfg, facts)
}
