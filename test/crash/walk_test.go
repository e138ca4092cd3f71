package crash

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
)

// scenario is a program that writes a tree under a root.
type scenario struct {
	// command runs the program against root; extra env is appended.
	command func(root string) *exec.Cmd
	// skip hides node paths from the comparison (state that does not survive
	// a power cut, such as /run).
	skip func(string) bool
	// also lists, per path, versions other than the final one that a cut run
	// may legitimately leave (a file the program writes more than once).
	also map[string][][]byte
	// inProgress says whether a file the finished run does not have is
	// one a run in progress leaves, finished (the record of a run that
	// has begun); nil: none is.
	inProgress func(p string, content []byte) bool
	// check runs on every tree a cut run leaves, for rules of the program's
	// own (a marker written last).
	check func(t *testing.T, cut, final tree)
	// rerun runs after each cut tree's re-run, with the cut tree, for what
	// the re-run must say of the cut one.
	rerun func(t *testing.T, root string, cut tree)
}

// walk runs the scenario uninterrupted, then once per write point with the
// process killed there, and re-runs each cut tree. It returns the number of
// write points it cut.
func walk(t *testing.T, s scenario) int {
	t.Helper()
	ref := t.TempDir()
	mustRun(t, s.command(ref))
	final := snapshot(t, ref, s.skip)
	if len(final) == 0 {
		t.Fatal("the uninterrupted run wrote nothing")
	}

	// A second run over the finished tree changes nothing.
	mustRun(t, s.command(ref))
	if d := diff(final, snapshot(t, ref, s.skip)); len(d) > 0 {
		t.Errorf("a second run changed the tree:\n%s", strings.Join(d, "\n"))
	}

	var prev tree
	for n := 1; ; n++ {
		root := t.TempDir()
		cmd := s.command(root)
		if n == 1 {
			prev = snapshot(t, root, s.skip)
		}
		killed := runCut(t, cmd, n)
		if !killed {
			if n == 1 {
				t.Fatal("the program finished without reaching a single write point; is the failpoint wired?")
			}
			return n - 1
		}
		cut := snapshot(t, root, s.skip)
		if bad := checkCut(cut, final, s.also, s.inProgress); len(bad) > 0 {
			t.Errorf("killed at write point %d, the tree shows:\n%s", n, strings.Join(bad, "\n"))
		}
		if bad := appearedWithoutTemp(prev, cut); len(bad) > 0 {
			t.Errorf("between write points %d and %d, files appeared that were not renamed from a temp file (a write around rootfs?):\n%s", n-1, n, strings.Join(bad, "\n"))
		}
		prev = cut
		if s.check != nil {
			s.check(t, cut, final)
		}
		mustRun(t, s.command(root))
		if s.rerun != nil {
			s.rerun(t, root, cut)
		}
		if d := diff(final, snapshot(t, root, s.skip)); len(d) > 0 {
			t.Errorf("killed at write point %d and re-run, the tree differs from an uninterrupted run:\n%s", n, strings.Join(d, "\n"))
		}
		if t.Failed() {
			return n
		}
	}
}

// runCut runs cmd with the failpoint at n and reports whether it was killed
// there (false: it finished, so n is past the last write point).
func runCut(t *testing.T, cmd *exec.Cmd, n int) bool {
	t.Helper()
	cmd.Env = append(append(os.Environ(), cmd.Env...), rootfs.FailpointEnv+"="+strconv.Itoa(n))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true
		}
	}
	if err != nil {
		t.Fatalf("with %s=%d: %v\n%s", rootfs.FailpointEnv, n, err, out)
	}
	return false
}

func mustRun(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.Env = append(os.Environ(), cmd.Env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, out)
	}
}
