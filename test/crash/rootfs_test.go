package crash

import (
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
)

// writerEnv makes the test binary act as a small program that writes a tree
// through rootfs (see TestMain), so the write points are cut in a process of
// their own.
const writerEnv = "CORIUM_CRASH_WRITER_ROOT"

func TestMain(m *testing.M) {
	if dir := os.Getenv(writerEnv); dir != "" {
		if err := writeTree(rootfs.New(dir)); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(agentbin.Run(m))
}

// writeTree writes what apply writes, in kind: secrets under a 0700
// directory, unit drop-ins, a .wants link, a file rewritten within the run,
// and a marker last.
func writeTree(r rootfs.Root) error {
	writes := []struct {
		path    string
		content string
		mode    os.FileMode
		dirMode os.FileMode
	}{
		{"/etc/wireguard/wg0.conf", "[Interface]\nPrivateKey = secret\n", 0o600, 0o700},
		{"/etc/systemd/system/k0sworker.service.d/10-corium-wireguard.conf", "[Unit]\nAfter=wg-quick@wg0.service\n", 0o644, 0o755},
		{"/var/lib/corium/progress", "overlay\n", 0o644, 0o755},
		{"/etc/k0s/join-token", "token\n", 0o600, 0o700},
		{"/var/lib/corium/progress", "k0s\n", 0o644, 0o755},
	}
	for _, w := range writes {
		if _, err := r.WriteFile(w.path, []byte(w.content), w.mode, w.dirMode); err != nil {
			return err
		}
	}
	if _, err := r.Symlink("/etc/systemd/system/multi-user.target.wants/wg-quick@wg0.service", "/usr/lib/systemd/system/wg-quick@.service"); err != nil {
		return err
	}
	_, err := r.WriteFile("/var/lib/corium/provisioned", nil, 0o644, 0o755)
	return err
}

func TestRootfsWritesSurviveSIGKILLAtEveryWritePoint(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	points := walk(t, scenario{
		command: func(root string) *exec.Cmd {
			cmd := exec.Command(exe)
			cmd.Env = []string{writerEnv + "=" + root}
			return cmd
		},
		also: map[string][][]byte{"/var/lib/corium/progress": {[]byte("overlay\n")}},
		check: func(t *testing.T, cut, final tree) {
			if _, ok := cut["/var/lib/corium/provisioned"]; ok {
				if d := diff(final, cut); len(d) > 0 {
					t.Errorf("the marker exists before everything else is final:\n%v", d)
				}
			}
		},
	})
	// Seven writes, two points each (before and after the rename): a count
	// that drops means a write point lost its failpoint.
	if points != 14 {
		t.Errorf("cut %d write points, want 14", points)
	}
}
