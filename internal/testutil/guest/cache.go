package guest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

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
