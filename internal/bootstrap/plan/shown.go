package plan

import "fmt"

// ShownFile is a file or link of a step as every report of a run shows it:
// the plan (what apply would do), the live run and status.json (what it
// did). Each adds only what is its own beside it: a plan its size, diff and
// secrecy; status nothing more.
type ShownFile struct {
	Path   string `json:"path"`
	Mode   string `json:"mode,omitempty"`
	Target string `json:"target,omitempty"`
	// Change is created, changed, unchanged or removed (status), or what
	// apply would find (a plan).
	Change string `json:"change"`
}

// ShownAction is a live action of a step as every report shows it; the plan
// adds when apply would perform it, status what came of it.
type ShownAction struct {
	Kind string   `json:"kind"`
	Unit string   `json:"unit,omitempty"`
	Args []string `json:"args,omitempty"`
}

// Shown is f as reports show it, with the change a run made or would make.
func (f File) Shown(change string) ShownFile {
	return ShownFile{Path: f.Path, Mode: fmt.Sprintf("%04o", f.Mode.Perm()), Change: change}
}

// Shown is l as reports show it.
func (l Link) Shown(change string) ShownFile {
	return ShownFile{Path: l.Path, Target: l.Target, Change: change}
}

// Removed is a path a step deleted, as reports show it.
func Removed(path string) ShownFile {
	return ShownFile{Path: path, Change: ChangeRemoved}
}

// ChangeRemoved is the change of a file or link a step deleted.
const ChangeRemoved = "removed"

// Shown is a as reports show it.
func (a Action) Shown() ShownAction {
	return ShownAction{Kind: string(a.Kind), Unit: a.Unit, Args: a.Words()}
}
