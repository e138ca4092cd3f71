package ondisk

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/systemd/offline"
)

// ReadWgQuickLinks reads, under root, the links `systemctl --root=DIR
// enable` makes for the wg-quick@ unit of every interface cfg names and of
// those prev applied that cfg drops (whose links an again run removes), from the
// [Install] section of the wg-quick@.service found there: wireguard-tools
// v1.0.20260223 says `WantedBy=multi-user.target wg-quick.target`, earlier
// ones only multi-user.target (src/systemd/wg-quick@.service). It is
// render.Inputs.WgQuickLinks. A root without the template (a bare test root) gives
// no entry; any other failure to read it is an error, since an interface
// that is not enabled comes up on the first boot only.
func ReadWgQuickLinks(root rootfs.Root, cfg *schema.Config, prev *render.Previous) (map[string][]plan.Link, error) {
	out := map[string][]plan.Link{}
	ifaces := append(slices.Clone(cfg.WireGuard), prev.Removed(cfg)...)
	for _, wg := range ifaces {
		unitName := plan.WgQuickUnit(wg.Name)
		links, err := offline.OfflineLinks(root, unitName)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("reading the install links of %s: %w", unitName, err)
		}
		for _, l := range links {
			out[unitName] = append(out[unitName], plan.Link{Path: l.Path, Target: l.Target})
		}
	}
	return out, nil
}
