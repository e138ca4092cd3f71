package firewall

import (
	"bytes"
	"io"

	"github.com/coreos/go-systemd/v22/unit"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/systemd"
)

// UnitName is the image's unit that re-applies the rendered guard every boot.
const UnitName = "corium-firewall.service"

// K0sDropInPath is the drop-in that ties the k0s unit to the guard.
func K0sDropInPath(k0sUnit string) string {
	return systemd.DropInPath(k0sUnit, "10-corium-firewall.conf")
}

// K0sDropIn orders the k0s unit after the guard and makes it require it: when
// the table cannot be programmed, k0s does not start with its ports open.
//
// Requires= alone is not enough: corium-firewall skips itself when there is
// no rendered guard (an unprovisioned node has none), and systemd counts a
// skipped unit as a success. The assertion fails k0s's start instead when
// the file a guarded node must have is gone.
func K0sDropIn() []byte {
	body, _ := io.ReadAll(unit.Serialize([]*unit.UnitOption{
		unit.NewUnitOption("Unit", "After", UnitName),
		unit.NewUnitOption("Unit", "Requires", UnitName),
		unit.NewUnitOption("Unit", "AssertPathExists", FilePath),
	}))
	return append([]byte(plan.Managed("#")), body...)
}

// DropInAssertsGuard says whether a k0s drop-in keeps k0s down without the
// rendered guard; an older agent's drop-in does not.
func DropInAssertsGuard(content []byte) bool {
	opts, err := unit.DeserializeOptions(bytes.NewReader(content))
	if err != nil {
		return false
	}
	for _, o := range opts {
		if o.Section == "Unit" && o.Name == "AssertPathExists" && o.Value == FilePath {
			return true
		}
	}
	return false
}
