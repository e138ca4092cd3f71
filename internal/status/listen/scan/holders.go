package scan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/corium/corium-agent/internal/status/listen"
)

// holders is every socket inode a process holds, each with its holder.
type holders struct {
	owners map[uint64]*listen.Owner
	// unread counts the processes whose descriptors could not be read
	// (not root's to read). With none, a socket that no process holds is
	// in no descriptor table: a kernel device's (a WireGuard or VXLAN
	// device's; every socket has an inode), or one in flight between
	// processes over SCM_RIGHTS (kernel.go); with some, it may be theirs.
	unread int
}

// holdersOf maps each socket inode to the process holding it, read from
// every proc/PID/fd. A process that ends while it is read is skipped; one
// whose descriptors cannot be read is counted.
func holdersOf(proc string) (holders, error) {
	entries, err := os.ReadDir(proc)
	if err != nil {
		return holders{}, fmt.Errorf("listing processes in %s: %w", proc, err)
	}
	out := holders{owners: map[uint64]*listen.Owner{}}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join(proc, e.Name())
		fds, err := os.ReadDir(filepath.Join(dir, "fd"))
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				out.unread++
			}
			continue
		}
		var owner *listen.Owner
		for _, fd := range fds {
			ino, ok := socketInode(filepath.Join(dir, "fd", fd.Name()))
			if !ok || out.owners[ino] != nil {
				continue
			}
			if owner == nil {
				owner = readOwner(dir, pid)
			}
			out.owners[ino] = owner
		}
	}
	return out, nil
}

// socketInode reads a descriptor's link, "socket:[12345]" for a socket.
func socketInode(fd string) (uint64, bool) {
	target, err := os.Readlink(fd)
	if err != nil {
		return 0, false
	}
	num, ok := strings.CutPrefix(target, "socket:[")
	if !ok {
		return 0, false
	}
	ino, err := strconv.ParseUint(strings.TrimSuffix(num, "]"), 10, 64)
	return ino, err == nil
}

// readOwner reads a process's comm and cgroups; what cannot be read stays
// empty rather than hiding the socket.
func readOwner(dir string, pid int) *listen.Owner {
	o := &listen.Owner{PID: pid}
	if b, err := os.ReadFile(filepath.Join(dir, "comm")); err == nil {
		o.Comm = strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile(filepath.Join(dir, "cgroup")); err == nil {
		o.Cgroups = parseCgroups(string(b))
	}
	return o
}

// parseCgroups takes the paths of /proc/PID/cgroup's lines,
// "hierarchy-ID:controllers:path" (cgroup v2 alone: one line, "0::path").
func parseCgroups(s string) []string {
	var out []string
	for line := range strings.Lines(s) {
		parts := strings.SplitN(strings.TrimSpace(line), ":", 3)
		if len(parts) == 3 && parts[2] != "" && parts[2] != "/" && !slices.Contains(out, parts[2]) {
			out = append(out, parts[2])
		}
	}
	return out
}
