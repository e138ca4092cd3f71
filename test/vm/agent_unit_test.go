package vm

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// defaultCPUWeight is every unit's CPU weight unless it sets one.
const defaultCPUWeight = 100

// startupCPUWeight is the StartupCPUWeight= of a unit file, 0 for none.
func startupCPUWeight(unit string) int {
	for _, l := range strings.Split(unit, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "StartupCPUWeight="); ok {
			n, _ := strconv.Atoi(v)
			return n
		}
	}
	return 0
}

// TestAgentUnitGoesFirstAtBoot: the agent's unit takes the CPU ahead of
// the units that start beside it at network-online.target (cloud-init's
// single process running its config and final stages among them) while
// the system boots. TestVMRecipe measured the agent reaching k0s later than
// the recipe with every unit at the same weight.
func TestAgentUnitGoesFirstAtBoot(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "image", "usr", "lib", "systemd", "system", "corium-agent.service"))
	if err != nil {
		t.Fatal(err)
	}
	if w := startupCPUWeight(string(data)); w <= defaultCPUWeight {
		t.Errorf("corium-agent.service: StartupCPUWeight %d, want above the default %d", w, defaultCPUWeight)
	}
}
