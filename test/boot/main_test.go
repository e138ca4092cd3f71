package boot

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/guest"
)

// repoRoot is the checkout the test runs in; tests run in their package
// directory.
var repoRoot, _ = filepath.Abs(filepath.Join("..", ".."))

var (
	rootfsOnce sync.Once
	rootfsPath string
	rootfsErr  error
)

func TestMain(m *testing.M) {
	os.Exit(agentbin.Run(m))
}

// agentBinary is the agent, built once per test binary, static as the image
// carries it.
func agentBinary(t testing.TB) string { return agentbin.Path(t) }

// rootfs is the cached Debian trixie rootfs (scripts/rootfs.sh builds it once
// and prints its path), or CORIUM_ROOTFS when set.
func rootfs(t testing.TB) string {
	t.Helper()
	rootfsOnce.Do(func() {
		if p := os.Getenv("CORIUM_ROOTFS"); p != "" {
			rootfsPath = p
			return
		}
		rootfsPath, rootfsErr = guest.CachePath(repoRoot, "rootfs.sh")
	})
	if rootfsErr != nil {
		t.Fatalf("preparing the boot rootfs: %v", rootfsErr)
	}
	if _, err := os.Stat(filepath.Join(rootfsPath, "usr", "lib", "systemd", "systemd")); err != nil {
		t.Fatalf("boot rootfs %s has no systemd; remove it and run scripts/rootfs.sh: %v", rootfsPath, err)
	}
	return rootfsPath
}

var (
	cloudInitOnce  sync.Once
	cloudInitLayer string
	cloudInitErr   error
)

// cloudInitLower is the cached overlayfs layer with cloud-init installed on
// top of the rootfs (scripts/rootfs.sh cloud-init), as lower layers.
func cloudInitLower(t testing.TB) string {
	t.Helper()
	base := rootfs(t)
	cloudInitOnce.Do(func() {
		cloudInitLayer, cloudInitErr = guest.CachePath(repoRoot, "rootfs.sh", "cloud-init")
	})
	if cloudInitErr != nil {
		t.Fatalf("preparing the cloud-init layer: %v", cloudInitErr)
	}
	return cloudInitLayer + ":" + base
}
