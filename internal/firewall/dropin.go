package firewall

import (
	"io"

	"github.com/coreos/go-systemd/v22/unit"

	"github.com/corium/corium-agent/internal/rootfs"
)

// UnitName is the image's unit that re-applies the rendered guard every boot.
const UnitName = "corium-firewall.service"

// K0sDropInPath is the drop-in that ties the k0s unit to the guard.
func K0sDropInPath(k0sUnit string) string {
	return "/etc/systemd/system/" + k0sUnit + ".d/10-corium-firewall.conf"
}

// K0sDropIn orders the k0s unit after the guard and makes it require it: when
// the table cannot be programmed, k0s does not start with its ports open.
func K0sDropIn() []byte {
	body, _ := io.ReadAll(unit.Serialize([]*unit.UnitOption{
		unit.NewUnitOption("Unit", "After", UnitName),
		unit.NewUnitOption("Unit", "Requires", UnitName),
	}))
	return append([]byte(rootfs.Managed("#")), body...)
}
