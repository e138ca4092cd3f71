package vm

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// image is the guest's common part, as scripts/vm-image.sh caches it.
type image struct {
	Root   string // the tree each VM's disk is made from
	Kernel string // copies of the kernel and initramfs, owned by this test binary
	Initrd string
	lock   string // the cache's build lock, held shared while Root is read
}

var (
	imageOnce sync.Once
	imageVal  image
	imageErr  error
)

// baseImage builds the cached guest on the first call (a one-time cost of
// about a minute) and returns it.
func baseImage(t testing.TB) image {
	t.Helper()
	imageOnce.Do(func() {
		var dir string
		if dir, imageErr = guest.CachePath(repoRoot, "vm-image.sh"); imageErr != nil {
			return
		}
		// QEMU reads the kernel at every start: copies keep a rebuild of the
		// cache by another run from pulling them away mid-test.
		bins := built(t)
		imageVal = image{
			Root:   filepath.Join(dir, "root"),
			Kernel: filepath.Join(filepath.Dir(bins.Agent), "vmlinuz"),
			Initrd: filepath.Join(filepath.Dir(bins.Agent), "initrd.img"),
			lock:   filepath.Join(filepath.Dir(dir), ".vm-lock"),
		}
		for src, dst := range map[string]string{"vmlinuz": imageVal.Kernel, "initrd.img": imageVal.Initrd} {
			data, err := os.ReadFile(filepath.Join(dir, src))
			if err == nil {
				err = os.WriteFile(dst, data, 0o644)
			}
			if err != nil {
				imageErr = err
				return
			}
		}
	})
	if imageErr != nil {
		t.Fatalf("preparing the VM image: %v", imageErr)
	}
	return imageVal
}

// readLock holds the cache's lock shared, so a rebuild (which takes it
// exclusively) does not replace the tree while a disk is made from it.
func (img image) readLock(t testing.TB) (unlock func()) {
	t.Helper()
	f, err := os.OpenFile(img.lock, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH); err != nil {
		f.Close()
		t.Fatal(err)
	}
	return func() { f.Close() }
}
