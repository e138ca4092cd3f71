package rootfs

import (
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds symlink hops like the kernel's ELOOP limit, so a loop in an
// image tree ends in "not found" instead of spinning.
const maxLinks = 40

// resolve maps the node path p to a host path the way the kernel would inside
// a chroot at the root: symlinks met on the way are followed, and an absolute
// target starts again at the root, not at the host's "/". Trees written by
// real tools hold such links (cloud-init's /var/lib/cloud/instance points at
// /var/lib/cloud/instances/<id>); without this, --root would read the host's
// files through them, or miss the node's. The last component is followed
// only with followLast, so a write replaces a link the way rename(2) does.
func (r Root) resolve(p string, followLast bool) string {
	clean := filepath.Clean("/" + p)
	if r.IsHost() {
		return clean
	}
	rest := strings.Split(strings.TrimPrefix(clean, "/"), "/")
	var done []string // resolved components, relative to the root
	for hops := 0; len(rest) > 0; {
		name := rest[0]
		rest = rest[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		candidate := append(done[:len(done):len(done)], name)
		if len(rest) == 0 && !followLast {
			done = candidate
			break
		}
		target, err := os.Readlink(filepath.Join(append([]string{r.dir}, candidate...)...))
		if err != nil || hops >= maxLinks {
			// Not a link (or not there): the kernel's answer comes from the
			// real lookup the caller makes next.
			done = candidate
			continue
		}
		hops++
		if filepath.IsAbs(target) {
			done = nil
		}
		rest = append(strings.Split(target, "/"), rest...)
	}
	return filepath.Join(append([]string{r.dir}, done...)...)
}
