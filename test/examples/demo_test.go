package examples

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestDemoListsTheTree runs make demo's script and reads the tree it
// lists: one entry a line, its mode and path, and a link with " -> " and
// its target (the .wants links that enable wg-quick@).
func TestDemoListsTheTree(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "scripts/demo.sh")
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "KEEP=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/demo.sh: %v\n%s", err, out)
	}
	_, tree, ok := strings.Cut(string(out), "==> the tree it wrote")
	if !ok {
		t.Fatalf("the demo lists no tree:\n%s", out)
	}
	tree, _, _ = strings.Cut(tree, "\n\n")
	entry := regexp.MustCompile(`^[0-7]{3,4} /\S+$`)
	link := regexp.MustCompile(`^777 (/\S+) -> (/\S+)$`)
	links := 0
	for _, l := range strings.Split(tree, "\n")[1:] {
		if m := link.FindStringSubmatch(l); m != nil {
			links++
			if !strings.HasSuffix(m[1], ".service") || m[2] != "/usr/lib/systemd/system/wg-quick@.service" {
				t.Errorf("link line %q: want a .wants link to wg-quick@.service", l)
			}
			continue
		}
		if !entry.MatchString(l) {
			t.Errorf("tree line %q is not MODE PATH or MODE PATH -> TARGET", l)
		}
	}
	if links != 2 {
		t.Errorf("%d link lines, want the two wg-quick@ .wants links:%s", links, tree)
	}
}
