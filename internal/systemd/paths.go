package systemd

import "path"

// UnitDir is where the agent writes under the root: its drop-ins, the
// enable links of the units it enables, and where k0s's install writes the
// k0s unit. It is the administrator's directory, first in systemd's search
// path (package offline's unitSearchPath), so what the agent writes wins
// over the image's /usr units.
const UnitDir = "/etc/systemd/system"

// DropInPath is the drop-in called name of unit under UnitDir.
func DropInPath(unit, name string) string { return path.Join(UnitDir, unit+".d", name) }
