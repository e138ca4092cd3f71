package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/coreos/go-systemd/v22/unit"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/systemd"
)

// Unit names and paths of the overlay. The wg-quick@.service template comes
// from the image's wireguard-tools package; Fedora installs it under
// /usr/lib/systemd/system. wgQuickTemplate and wgQuickWantedBy are the
// enable link of a root without the template (see wgQuickLinks).
const (
	wgQuickTemplate      = "/usr/lib/systemd/system/wg-quick@.service"
	wgQuickWantedBy      = systemd.UnitDir + "/multi-user.target.wants"
	wireGuardDir         = "/etc/wireguard"
	wireGuardDropInName  = "10-corium-wireguard.conf"
	wgQuickK0sDropInName = "10-corium-k0s.conf"
)

// K0sUnit is the systemd unit `k0s install` creates for the role.
func K0sUnit(role schema.Role) string {
	if role.IsController() {
		return "k0scontroller.service"
	}
	return "k0sworker.service"
}

// WireGuardConfPath is where wg-quick reads the interface's configuration.
func WireGuardConfPath(name string) string { return wireGuardDir + "/" + name + ".conf" }

// WireGuardDropInPath is the k0s drop-in that ties k0s to the overlay.
func WireGuardDropInPath(role schema.Role) string {
	return systemd.DropInPath(K0sUnit(role), wireGuardDropInName)
}

// wgQuickWantsLink is the link `systemctl --root=DIR enable wg-quick@NAME`
// makes with a template that says `WantedBy=multi-user.target`, as
// wireguard-tools did before v1.0.20260223.
func wgQuickWantsLink(name string) plan.Link {
	return plan.Link{Path: wgQuickWantedBy + "/" + plan.WgQuickUnit(name), Target: wgQuickTemplate}
}

// wgQuickLinks are the links that enable interface name's unit, so it comes
// up on every boot after the first: those read from the template's [Install]
// section (ReadWgQuickLinks), or, for a root without the template,
// wgQuickWantsLink.
func wgQuickLinks(read map[string][]plan.Link, name string) []plan.Link {
	if links := read[plan.WgQuickUnit(name)]; len(links) > 0 {
		return links
	}
	return []plan.Link{wgQuickWantsLink(name)}
}

// ReadWgQuickLinks reads, under root, the links `systemctl --root=DIR
// enable` makes for the wg-quick@ unit of every interface cfg names and of
// those prev applied that cfg drops (whose links an again run removes), from the
// [Install] section of the wg-quick@.service found there: wireguard-tools
// v1.0.20260223 says `WantedBy=multi-user.target wg-quick.target`, earlier
// ones only multi-user.target (src/systemd/wg-quick@.service). It is
// Inputs.WgQuickLinks. A root without the template (a bare test root) gives
// no entry; any other failure to read it is an error, since an interface
// that is not enabled comes up on the first boot only.
func ReadWgQuickLinks(root rootfs.Root, cfg *schema.Config, prev *Previous) (map[string][]plan.Link, error) {
	out := map[string][]plan.Link{}
	ifaces := append(slices.Clone(cfg.WireGuard), prev.removed(cfg)...)
	for _, wg := range ifaces {
		unitName := plan.WgQuickUnit(wg.Name)
		links, err := systemd.OfflineLinks(root, unitName)
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

// renderK0sDropIn orders k0s after every overlay interface and makes it
// require them: with an interface down, k0s refuses to start instead of
// joining the cluster at an address its peers cannot reach.
func renderK0sDropIn(ifaces []schema.WireGuard) ([]byte, error) {
	var opts []*unit.UnitOption
	for _, wg := range ifaces {
		opts = append(opts, unit.NewUnitOption("Unit", "After", plan.WgQuickUnit(wg.Name)))
	}
	for _, wg := range ifaces {
		opts = append(opts, unit.NewUnitOption("Unit", "Requires", plan.WgQuickUnit(wg.Name)))
	}
	body, err := io.ReadAll(unit.Serialize(opts))
	if err != nil {
		return nil, fmt.Errorf("serializing the k0s wireguard drop-in: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(rootfs.Managed("#"))
	b.Write(body)
	return b.Bytes(), nil
}

// WgQuickK0sDropInPath is the interface's drop-in that brings k0s back when
// the interface starts again.
func WgQuickK0sDropInPath(name string) string {
	return systemd.DropInPath(plan.WgQuickUnit(name), wgQuickK0sDropInName)
}

// renderWgQuickK0sDropIn makes starting the interface's unit start k0s too.
// k0s Requires= the interface, so `systemctl stop wg-quick@IF` stops k0s,
// and nothing starts it again when the interface comes back: Requires=
// carries stops and restarts, not starts, and Restart= does not apply to a
// stop a dependency caused. With Wants= here, starting the interface starts
// k0s; k0s's own After= keeps the order, and its marker condition still
// keeps it from starting on a node that is not provisioned.
func renderWgQuickK0sDropIn(role schema.Role) []byte {
	body, _ := io.ReadAll(unit.Serialize([]*unit.UnitOption{
		unit.NewUnitOption("Unit", "Wants", K0sUnit(role)),
	}))
	return append([]byte(rootfs.Managed("#")), body...)
}
