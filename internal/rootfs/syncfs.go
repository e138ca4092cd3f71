package rootfs

import (
	"fmt"

	pathrs "github.com/cyphar/filepath-securejoin/pathrs-lite"
	"golang.org/x/sys/unix"
)

// SyncFS makes durable everything written, by anyone, to the filesystem
// holding the directory at the node path p (syncfs(2)). The agent's own writes are synced as
// they are made; this is for what a program it ran wrote without syncing,
// before the agent records that program's work as done: `k0s install`
// writes its unit through kardianos/service with no fsync, so a power cut
// after the agent's marker, with only the marker synced, left a node whose
// k0s unit was empty and which never ran the agent again to mend it.
func (r Root) SyncFS(p string) error {
	h, err := r.lookup("open", p)
	if err != nil {
		return fmt.Errorf("syncing the filesystem of %s: %w", node(p), bare(err))
	}
	defer h.Close()
	// syncfs(2) needs a descriptor that is not O_PATH; the handle found
	// inside the root is reopened, never looked up again by name, and only
	// as a directory, so that nothing else there (a FIFO) is opened.
	f, err := pathrs.Reopen(h, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC)
	if err != nil {
		return fmt.Errorf("syncing the filesystem of %s: %w", node(p), cause(err))
	}
	defer f.Close()
	if err := unix.Syncfs(fd(f)); err != nil {
		return fmt.Errorf("syncing the filesystem of %s: %w", node(p), cause(err))
	}
	return nil
}
