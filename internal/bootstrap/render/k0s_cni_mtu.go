package render

import (
	"errors"
	"strings"

	"github.com/corium/corium-agent/internal/schema"
)

// checkCNIMTU refuses a CNI MTU k0s.patch sets larger than the overlay
// carrying the node address lets a pod's packet have, against the MTU that
// interface's wg-quick file states: configured, or derived on the host's
// facts (InterfaceMTU, the decision the file and the rendered CNI MTU
// follow). validate checks a stated mtu alone; this is the check of what
// plan and apply run, which validate --facts runs too. addr is the
// decided node address, "" when it is decided at boot.
func checkCNIMTU(in Inputs, addr string) error {
	for i, wg := range in.Config.WireGuard {
		if !wg.NodeAddress {
			continue
		}
		m, err := InterfaceMTU(wg, in.Facts, in.Previous)
		if err != nil {
			return nil // nodeAddressMTU refuses it, before this runs
		}
		if addr == "" && len(wg.Address) > 0 {
			addr, _, _ = strings.Cut(wg.Address[0], "/")
		}
		if f, bad := schema.CNIMTUOverOverlay(in.Config, in.K0s, addr, schema.OverlayMTU{Index: i, Value: m.Value, Why: m.Why}); bad {
			return errors.New(f.String())
		}
	}
	return nil
}
