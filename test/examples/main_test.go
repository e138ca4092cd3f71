package examples

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
)

// repo is the checkout's top directory; the examples' paths in docs are
// relative to it, so commands run from there.
var (
	repo  string
	agent string // the corium-agent binary built for this run
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	_, file, _, _ := runtime.Caller(0)
	repo = filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
	var err error
	if agent, err = agentbin.Build(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return agentbin.Run(m)
}

// runAgent runs the built agent from the top of the checkout and returns its
// combined output and exit code.
func runAgent(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(agent, args...)
	cmd.Dir = repo
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("running corium-agent %s: %v", strings.Join(args, " "), err)
		}
	}
	return out.String(), cmd.ProcessState.ExitCode()
}

// exampleConfigs lists every YAML document under examples/, relative to the
// top of the checkout, in a fixed order.
func exampleConfigs(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join(repo, "examples"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			rel, _ := filepath.Rel(repo, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatalf("listing examples: %v", err)
	}
	return files
}

func readRepo(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repo, rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
