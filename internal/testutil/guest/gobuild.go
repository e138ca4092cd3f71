package guest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// GoBuild builds the package pkg of the module at repoRoot into out,
// static and without build paths, as the image carries the agent, so a
// guest can run it whatever its C library.
func GoBuild(repoRoot, out, pkg string) error {
	cmd := exec.Command("go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = repoRoot
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building %s: %w\n%s", pkg, err, b)
	}
	return nil
}

// CachePath runs one of the repository's cache scripts (scripts/rootfs.sh,
// scripts/vm-image.sh), which builds what it caches once and prints its
// path. What the script says while building goes to the test's stderr.
func CachePath(repoRoot, script string, args ...string) (string, error) {
	cmd := exec.Command("bash", append([]string{filepath.Join(repoRoot, "scripts", script)}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s: %w (its output is above)", strings.Join(cmd.Args, " "), err)
	}
	return strings.TrimSpace(string(out)), nil
}
