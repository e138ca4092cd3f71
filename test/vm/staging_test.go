package vm

import (
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// staging is a VM's disk while it is made: the cached tree with the VM's
// own files over it (guest.Tree, an overlayfs mount, so the cache is
// never written), turned into an ext4 image by mke2fs -d. No loop device is
// involved.
type staging struct {
	*guest.Tree
	t testing.TB
}

func newStaging(t testing.TB, img image) *staging {
	t.Helper()
	return &staging{Tree: guest.NewTree(t, img.Root), t: t}
}

// diskSize is each VM's disk, sparse: the tree is about 500 MB.
const diskSize = "3G"

// MakeDisk writes the staged tree into an ext4 image at path and unmounts
// the staging tree.
func (s *staging) MakeDisk(path string) {
	s.t.Helper()
	start := time.Now()
	cmd := exec.Command("mke2fs", "-q", "-F", "-t", "ext4", "-L", "root", "-d", s.Root, path, diskSize)
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("making the disk %s: %v\n%s", path, err, out)
	}
	s.Unmount()
	s.t.Logf("disk %s made in %v", filepath.Base(path), time.Since(start).Round(100*time.Millisecond))
}
