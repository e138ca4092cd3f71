package examples

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/host"
)

// readmeBlocks are the README's self-contained shell blocks: those that make
// their own directories with mktemp, so they can run anywhere, as a newcomer
// pastes them.
func readmeBlocks(t *testing.T) []string {
	t.Helper()
	fence := regexp.MustCompile("(?s)```sh\n(.*?)```")
	var blocks []string
	for _, m := range fence.FindAllStringSubmatch(string(readRepo(t, "README.md")), -1) {
		if strings.Contains(m[1], "mktemp") && strings.Contains(m[1], "corium-agent") {
			blocks = append(blocks, m[1])
		}
	}
	return blocks
}

// TestREADMEBlocksRun runs each self-contained shell block of the README with
// bash -e from the top of the checkout, the built agent first on PATH (the
// block's own make build and PATH lines are what built it). A command
// annotated "# exit N" must exit N; every "#   text" line under a command is
// output it must print (lines with " ..." or in parentheses are elisions).
func TestREADMEBlocksRun(t *testing.T) {
	host.RequireCommands(t, "bash", "wg")
	blocks := readmeBlocks(t)
	if len(blocks) < 3 {
		t.Fatalf("found %d self-contained shell blocks in README.md; the quick start, the secrets and the resolve blocks are expected", len(blocks))
	}
	exitNote := regexp.MustCompile(`^(.*?)\s+# exit (\d+)`)
	for i, block := range blocks {
		tmp := t.TempDir()
		var script, want []string
		for _, line := range strings.Split(block, "\n") {
			line = strings.ReplaceAll(line, "/tmp/", tmp+"/")
			switch {
			case strings.HasPrefix(line, "make build"), strings.HasPrefix(line, "export PATH="):
			case strings.HasPrefix(line, "#   "):
				text := strings.TrimSpace(strings.TrimPrefix(line, "#"))
				if !strings.Contains(text, " ...") && !strings.HasPrefix(text, "(") {
					want = append(want, text)
				}
			case exitNote.MatchString(line):
				m := exitNote.FindStringSubmatch(line)
				script = append(script, "rc=0; "+m[1]+" || rc=$?; test $rc -eq "+m[2])
			default:
				script = append(script, line)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		cmd := exec.CommandContext(ctx, "bash", "-e", "-c", strings.Join(script, "\n"))
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(agent)+":"+os.Getenv("PATH"), "TMPDIR="+tmp)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		cancel()
		first := strings.SplitN(strings.TrimSpace(block), "\n", 2)[0]
		if err != nil {
			t.Errorf("README block %d (%s) fails: %v\n%s", i, first, err, out.String())
			continue
		}
		for _, w := range want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("README block %d (%s) promises %q; it printed:\n%s", i, first, w, out.String())
			}
		}
	}
}
