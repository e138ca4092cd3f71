package vm

import (
	"encoding/json"
	"fmt"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/status"
)

// owned is what a machine has at the paths the agent owns: each path's
// kind, mode, size and sha256 (or a link's target), and the entries of
// each directory they are in, so a file left beside them (a temp file of a
// cut write) is seen too.
type owned struct {
	Files map[string]string   // path: "file MODE SIZE SHA256", "link TARGET", "missing" or "other TYPE"
	Dirs  map[string][]string // directory: its entries' names, sorted
}

// ownedAside are the agent's own records of its runs, which differ by run
// (status and run records aside, as the issue says).
var ownedAside = []string{status.Path, status.RunPath}

// dirsLoose are directories that hold more than the agent's files and
// change with the boots (/etc): only a cut write's temp file counts there.
var dirsLoose = []string{"/etc"}

// tempName is the agent's temp file beside a file it writes (rootfs:
// ".NAME.tmp-N"), which a cut write can leave behind.
var tempName = regexp.MustCompile(`^\..+\.tmp-[0-9]+$`)

// ownedPaths is every file and link a run's status lists, with the k0s
// unit and its enable link (k0s's, written by the install the agent runs),
// sorted and without the records aside.
func ownedPaths(st *status.Status, k0sUnit string) []string {
	paths := []string{"/etc/systemd/system/" + k0sUnit, "/etc/systemd/system/multi-user.target.wants/" + k0sUnit}
	for _, s := range st.Steps {
		for _, f := range s.Files {
			paths = append(paths, f.Path)
		}
	}
	sort.Strings(paths)
	paths = slices.Compact(paths)
	return slices.DeleteFunc(paths, func(p string) bool { return slices.Contains(ownedAside, p) })
}

// readStatus is the last run's status.json on the machine.
func (m *Machine) readStatus() *status.Status {
	m.t.Helper()
	var st status.Status
	if err := json.Unmarshal([]byte(m.MustExec("cat", status.Path)), &st); err != nil {
		m.t.Fatalf("%s: %s: %v", m.Name, status.Path, err)
	}
	return &st
}

// ownedScript prints one line per path, then "--", then one line per
// directory entry; lines are tab-separated.
const ownedScript = `paths=1
for p; do
  if [ "$p" = -- ]; then paths=; echo --; continue; fi
  if [ -z "$paths" ]; then ls -A1 "$p" 2>/dev/null | sed "s|^|$p	|"; continue; fi
  if [ -L "$p" ]; then printf '%s\tlink %s\n' "$p" "$(readlink "$p")"
  elif [ -f "$p" ]; then printf '%s\tfile %s %s\n' "$p" "$(stat -c '%a %s' "$p")" "$(sha256sum <"$p" | cut -d' ' -f1)"
  elif [ -e "$p" ]; then printf '%s\tother %s\n' "$p" "$(stat -c %F "$p")"
  else printf '%s\tmissing\n' "$p"; fi
done
`

// readOwned reads the paths and their directories on the running machine,
// through guestd, as the guest sees them.
func (m *Machine) readOwned(paths []string) owned {
	m.t.Helper()
	var dirs []string
	for _, p := range paths {
		dirs = append(dirs, path.Dir(p))
	}
	sort.Strings(dirs)
	dirs = slices.Compact(dirs)
	args := append(append(append([]string{"sh", "-c", ownedScript, "sh"}, paths...), "--"), dirs...)
	out, err := m.ExecIn(2*time.Minute, nil, args...)
	if err != nil {
		m.t.Fatalf("%s: reading the agent's files: %v\n%s", m.Name, err, out)
	}
	return parseOwned(out, dirs)
}

func parseOwned(out string, dirs []string) owned {
	o := owned{Files: map[string]string{}, Dirs: map[string][]string{}}
	for _, d := range dirs {
		o.Dirs[d] = nil
	}
	files := true
	for _, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if line == "--" {
			files = false
			continue
		}
		k, v, ok := strings.Cut(line, "\t")
		switch {
		case !ok:
		case files:
			o.Files[k] = v
		default:
			o.Dirs[k] = append(o.Dirs[k], v)
		}
	}
	for d := range o.Dirs {
		sort.Strings(o.Dirs[d])
	}
	return o
}

// compareOwned lists how got differs from want, the reference: a path
// missing, of another kind or mode, or with other bytes (its size says
// when it is a part), a directory entry one has and the other has not, and
// any temp file of a cut write on either. Sorted; none is a match.
func compareOwned(want, got owned) []string {
	var out []string
	for p, w := range want.Files {
		g, ok := got.Files[p]
		switch {
		case !ok:
			out = append(out, p+": not read on this machine")
		case g != w:
			out = append(out, fmt.Sprintf("%s: %s, want %s", p, short(g), short(w)))
		}
	}
	for p, g := range got.Files {
		if _, ok := want.Files[p]; !ok {
			out = append(out, fmt.Sprintf("%s: %s, not on the reference's list", p, short(g)))
		}
	}
	for d, g := range got.Dirs {
		w := want.Dirs[d]
		for _, name := range g {
			switch {
			case slices.Contains(ownedAside, path.Join(d, name)):
			case tempName.MatchString(name):
				out = append(out, fmt.Sprintf("%s: a temp file of a cut write is left", path.Join(d, name)))
			case !slices.Contains(w, name) && !slices.Contains(dirsLoose, d):
				out = append(out, fmt.Sprintf("%s: extra, not on the reference", path.Join(d, name)))
			}
		}
		for _, name := range w {
			if !slices.Contains(g, name) && !slices.Contains(dirsLoose, d) && !slices.Contains(ownedAside, path.Join(d, name)) {
				out = append(out, fmt.Sprintf("%s: on the reference, not here", path.Join(d, name)))
			}
		}
	}
	sort.Strings(out)
	return out
}

// short is a read path's state with its sha256 cut to 12 digits: enough to
// tell two apart, and less of a handle on a file holding a key.
func short(state string) string {
	f := strings.Fields(state)
	if len(f) == 4 && f[0] == "file" && len(f[3]) == 64 {
		f[3] = f[3][:12]
		return fmt.Sprintf("file mode %s, %s bytes, sha256 %s…", f[1], f[2], f[3])
	}
	return state
}
