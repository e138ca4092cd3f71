package offline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/coreos/go-systemd/v22/unit"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/systemd"
)

// unitSearchPath is where `systemctl --root` looks for a system unit file,
// in order; /lib/systemd/system matters only on a root that does not merge
// /usr (Debian before bookworm).
var unitSearchPath = []string{
	systemd.UnitDir,
	"/run/systemd/system",
	"/usr/local/lib/systemd/system",
	"/usr/lib/systemd/system",
	"/lib/systemd/system",
}

// Link is one symlink of an enabled unit: Path points at Target, both node
// paths under the root.
type Link struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// OfflineLinks reads a unit's [Install] section under root and returns the
// links `systemctl --root=DIR enable UNIT` makes: one per WantedBy=,
// RequiredBy= and Alias=. An instance (name@inst.service) is enabled through
// its template's file. A unit with no file under root is an error that wraps
// fs.ErrNotExist.
func OfflineLinks(root rootfs.Root, name string) ([]Link, error) {
	file, err := findUnit(root, name)
	if err != nil {
		return nil, err
	}
	data, err := root.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", file, err)
	}
	opts, err := unit.DeserializeOptions(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("parsing %s: %w", file, err)
	}
	var links []Link
	for _, o := range opts {
		if o.Section != "Install" {
			continue
		}
		for _, v := range strings.Fields(o.Value) {
			switch o.Name {
			case "WantedBy":
				links = append(links, Link{Path: path.Join(systemd.UnitDir, v+".wants", name), Target: file})
			case "RequiredBy":
				links = append(links, Link{Path: path.Join(systemd.UnitDir, v+".requires", name), Target: file})
			case "Alias":
				links = append(links, Link{Path: path.Join(systemd.UnitDir, v), Target: file})
			}
		}
	}
	if len(links) == 0 {
		return nil, fmt.Errorf("enabling %s: %s has no [Install] section to enable it by", name, file)
	}
	return links, nil
}

// EnableOffline makes the links of OfflineLinks under root; a link already in
// place is left alone. It reports whether anything changed.
func EnableOffline(root rootfs.Root, name string) (bool, error) {
	links, err := OfflineLinks(root, name)
	if err != nil {
		return false, err
	}
	changed := false
	for _, l := range links {
		c, err := root.Symlink(l.Path, l.Target)
		if err != nil {
			return changed, fmt.Errorf("enabling %s: %w", name, err)
		}
		changed = changed || c != rootfs.Unchanged
	}
	return changed, nil
}

// findUnit returns the node path of the file that defines name: the unit's
// own file, or for an instance its template's.
func findUnit(root rootfs.Root, name string) (string, error) {
	candidates := []string{name}
	if at := strings.Index(name, "@"); at >= 0 {
		if dot := strings.LastIndex(name, "."); dot > at+1 {
			candidates = append(candidates, name[:at+1]+name[dot:])
		}
	}
	for _, c := range candidates {
		for _, dir := range unitSearchPath {
			p := path.Join(dir, c)
			info, err := root.Stat(p)
			if err == nil && info.Mode().IsRegular() {
				return p, nil
			}
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("looking for the unit file of %s: %w", name, err)
			}
		}
	}
	// Wrapping fs.ErrNotExist lets a caller tell a root without the unit
	// (a bare test root) from one whose unit file is broken.
	return "", fmt.Errorf("enabling %s: no unit file for it under %s in %s; is its package in the image? (%w)",
		name, root.Dir(), strings.Join(unitSearchPath, ", "), fs.ErrNotExist)
}
