package rootfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// SyncFS takes a directory inside the root and nothing else: a missing one
// and a FIFO fail naming the node path (the FIFO at once, never opened for
// reading, which would block), and a link out of the root is followed
// inside it. That it makes a cut-off write durable is TestVMPowerCut's
// (test/vm): only a power cut shows it.
func TestSyncFSTakesADirectoryInsideTheRoot(t *testing.T) {
	dir := t.TempDir()
	r := New(dir)
	mustT(t, os.MkdirAll(filepath.Join(dir, "etc/systemd/system"), 0o755))
	mustT(t, os.Symlink("/etc/systemd", filepath.Join(dir, "units")))
	mustT(t, unix.Mkfifo(filepath.Join(dir, "fifo"), 0o600))
	for _, p := range []string{"/etc/systemd/system", "/units/system", "/"} {
		if err := r.SyncFS(p); err != nil {
			t.Errorf("SyncFS(%s): %v", p, err)
		}
	}
	for p, want := range map[string]string{
		"/etc/systemd/missing": "syncing the filesystem of /etc/systemd/missing: no such file or directory",
		"/fifo":                "syncing the filesystem of /fifo: not a directory",
	} {
		done := make(chan error, 1)
		go func() { done <- r.SyncFS(p) }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), dir) {
				t.Errorf("SyncFS(%s) = %v, want %q, no host path", p, err, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("SyncFS(%s) blocked", p)
		}
	}
}
