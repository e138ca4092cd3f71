package boot

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/guest"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// bootTimeout bounds one boot, including a first-boot agent run.
const bootTimeout = 3 * time.Minute

// Node is one machine: an overlayfs copy of the rootfs with the image's
// files, booted with systemd-nspawn inside a network namespace. Its upper
// layer survives shutdowns, so a second Boot is a reboot of the same disk.
type Node struct {
	*guest.Tree // the disk the container boots from
	t           testing.TB
	Name        string
	Netns       *netns.Netns
	// Credentials are passed at each boot the way a hypervisor would
	// (--set-credential=NAME:VALUE).
	Credentials map[string]string

	dir     string
	cmd     *exec.Cmd
	done    chan error
	init    int      // the container's systemd, as a host PID
	cgroups []string // host cgroup directories the container runs under
	BootID  string   // the current (or last) boot's id, as the journal has it
}

// NewNode makes a node from the cached rootfs with image/ and the agent
// installed. Everything it makes is removed when the test ends.
func NewNode(t testing.TB, name string, ns *netns.Netns) *Node {
	t.Helper()
	return newNodeOn(t, name, ns, rootfs(t))
}

// newNodeOn is NewNode on the given overlayfs lower layers (LAYER:...:ROOTFS).
func newNodeOn(t testing.TB, name string, ns *netns.Netns, lower string) *Node {
	t.Helper()
	agent := agentBinary(t)
	n := &Node{Tree: guest.NewTree(t, lower), t: t, Name: name + "-" + fixture.RandHex(3), Netns: ns, dir: t.TempDir(), Credentials: map[string]string{}}
	t.Cleanup(n.destroy)

	n.CopyTree(filepath.Join(repoRoot, "image"), "/")
	n.CopyFile(agent, "/usr/bin/corium-agent", 0o755)
	n.WriteFile("/etc/machine-id", []byte(fixture.RandHex(32)+"\n"), 0o444)
	// debootstrap copies the build host's name into the rootfs; a fresh
	// image has no static hostname.
	if err := os.Remove(n.Path("/etc/hostname")); err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	// The journal persists across reboots of the node, for the assertions.
	n.MkdirAll("/var/log/journal", 0o755)
	// Test-only: there is no WireGuard kernel module here.
	n.WriteFile("/etc/systemd/system/wg-quick@.service.d/50-test-userspace.conf",
		[]byte("[Service]\nEnvironment=WG_QUICK_USERSPACE_IMPLEMENTATION=wireguard-go\n"), 0o644)
	installK0sStandIn(n)
	// As the Containerfile does at build time.
	host.Run(t, "systemctl", "--root="+n.Root, "enable", "corium-agent.service", "corium-firewall.service")
	return n
}

// Exists reports whether p exists on the node's disk.
func (n *Node) Exists(p string) bool {
	_, err := os.Lstat(n.Path(p))
	return err == nil
}

// MustRemove removes p from the node's disk.
func (n *Node) MustRemove(p string) {
	n.t.Helper()
	if err := os.Remove(n.Path(p)); err != nil {
		n.t.Fatal(err)
	}
}

// ReadFile reads p from the node's disk ("" when missing).
func (n *Node) ReadFile(p string) string {
	data, _ := os.ReadFile(n.Path(p))
	return string(data)
}

// Boot starts the node and waits until systemd has finished booting it
// (running or degraded). It returns the state systemd reports.
func (n *Node) Boot() string {
	n.t.Helper()
	if n.cmd != nil {
		n.t.Fatalf("%s is already running", n.Name)
	}
	start := time.Now()
	n.cgroups = n.makeCgroups()
	args := []string{"systemd-nspawn", "-D", n.Root, "--machine=" + n.Name, "--boot",
		"--register=no", "--keep-unit", "--console=pipe", "--capability=CAP_NET_ADMIN"}
	if n.Netns != nil {
		args = append(args, "--network-namespace-path="+n.Netns.Path())
	}
	for name, value := range n.Credentials {
		args = append(args, "--set-credential="+name+":"+value)
	}
	n.cmd = n.nspawn(args)
	// The console of this boot only: what PID 1 says before journald runs
	// (the boot transaction, ordering cycles) is only here.
	logf, err := os.OpenFile(filepath.Join(n.dir, "nspawn.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		n.t.Fatal(err)
	}
	defer logf.Close()
	n.cmd.Stdout, n.cmd.Stderr = logf, logf
	if err := n.cmd.Start(); err != nil {
		n.t.Fatalf("starting %s: %v", n.Name, err)
	}
	n.done = make(chan error, 1)
	go func(c *exec.Cmd, done chan error) { done <- c.Wait() }(n.cmd, n.done)

	ctx, cancel := context.WithTimeout(context.Background(), bootTimeout)
	defer cancel()
	n.init = n.waitInit(ctx)
	state := n.waitBooted(ctx)
	n.BootID = strings.ReplaceAll(strings.TrimSpace(n.MustExec("cat", "/proc/sys/kernel/random/boot_id")), "-", "")
	n.t.Logf("%s booted (%s) in %v, boot id %s", n.Name, state, time.Since(start).Round(time.Millisecond), n.BootID)
	return state
}

// nspawn is the nspawn command line run from a shell that first moves
// itself into the node's own cgroups, so two nodes never share nspawn's
// "payload" cgroup and cleanup finds every process a node left behind.
func (n *Node) nspawn(args []string) *exec.Cmd {
	script := `for d in $CORIUM_CGROUPS; do echo $$ >"$d/cgroup.procs" || exit 1; done; exec "$@"`
	cmd := exec.Command("sh", append([]string{"-c", script, "sh"}, args...)...)
	cmd.Env = append(os.Environ(), "SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=0", "CORIUM_CGROUPS="+strings.Join(n.cgroups, " "))
	return cmd
}

// RunOffline runs a command in the node's tree without booting it (the
// rootfs's own binaries, as an image build step would), returning stdout and
// stderr apart.
func (n *Node) RunOffline(args ...string) (stdout, stderr string, err error) {
	n.t.Helper()
	if n.cmd != nil {
		n.t.Fatalf("%s is running", n.Name)
	}
	n.cgroups = n.makeCgroups()
	defer n.removeCgroups()
	cmd := n.nspawn(append([]string{"systemd-nspawn", "-D", n.Root, "--machine=" + n.Name,
		"--register=no", "--keep-unit", "--pipe", "--quiet", "--"}, args...))
	var o, e strings.Builder
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

func (n *Node) waitInit(ctx context.Context) int {
	n.t.Helper()
	for {
		out, _ := exec.Command("pgrep", "-P", strconv.Itoa(n.cmd.Process.Pid), "-x", "systemd").Output()
		if pid, err := strconv.Atoi(strings.TrimSpace(string(out))); err == nil {
			return pid
		}
		select {
		case err := <-n.done:
			n.done <- err
			n.t.Fatalf("%s: nspawn exited before systemd started (%v):\n%s", n.Name, err, n.nspawnLog())
		case <-ctx.Done():
			n.t.Fatalf("%s: no systemd in the container:\n%s", n.Name, n.nspawnLog())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitBooted asks systemd itself; is-system-running --wait returns when the
// boot transaction is done. Before the bus is up it fails fast: retry.
func (n *Node) waitBooted(ctx context.Context) string {
	n.t.Helper()
	for {
		cmd := exec.CommandContext(ctx, "nsenter", "-t", strconv.Itoa(n.init), "-m", "-p", "--",
			"systemctl", "is-system-running", "--wait")
		out, _ := cmd.Output()
		switch s := strings.TrimSpace(string(out)); s {
		case "running", "degraded":
			return s
		case "maintenance", "stopping":
			n.t.Fatalf("%s: system is %s:\n%s", n.Name, s, n.JournalText(""))
		}
		select {
		case <-ctx.Done():
			n.t.Fatalf("%s: boot did not finish in %v:\n%s", n.Name, bootTimeout, n.JournalText(""))
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Exec runs a command inside the running node (its mount, PID, UTS, IPC and
// network namespaces) and returns its combined output.
func (n *Node) Exec(args ...string) (string, error) {
	if n.cmd == nil {
		return "", errors.New(n.Name + " is not running")
	}
	full := append([]string{"-t", strconv.Itoa(n.init), "-m", "-u", "-i", "-n", "-p", "--"}, args...)
	out, err := exec.Command("nsenter", full...).CombinedOutput()
	return string(out), err
}

// MustExec is Exec failing the test on error.
func (n *Node) MustExec(args ...string) string {
	n.t.Helper()
	out, err := n.Exec(args...)
	if err != nil {
		n.t.Fatalf("%s: %s: %v\n%s", n.Name, strings.Join(args, " "), err, out)
	}
	return out
}

// Shutdown powers the node off the way a host does (SIGTERM to nspawn asks
// systemd for an orderly halt) and waits for it.
func (n *Node) Shutdown() {
	n.t.Helper()
	if n.cmd == nil {
		return
	}
	start := time.Now()
	_ = n.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-n.done:
		n.t.Logf("%s halted in %v", n.Name, time.Since(start).Round(time.Millisecond))
	case <-time.After(90 * time.Second):
		n.t.Errorf("%s did not halt within 90s; killing it", n.Name)
		_ = n.cmd.Process.Kill()
		<-n.done
	}
	n.cmd, n.init = nil, 0
	n.removeCgroups()
	_ = os.RemoveAll(filepath.Join("/run/systemd/nspawn/propagate", n.Name))
	_ = os.Remove(filepath.Join("/run/systemd/nspawn/unix-export", n.Name))
}

// destroy undoes everything NewNode and Boot made, pass or fail.
func (n *Node) destroy() {
	if n.cmd != nil {
		_ = n.cmd.Process.Kill()
		<-n.done
		n.cmd = nil
	}
	n.removeCgroups()
	_ = os.RemoveAll(filepath.Join("/run/systemd/nspawn/propagate", n.Name))
	_ = os.Remove(filepath.Join("/run/systemd/nspawn/unix-export", n.Name))
	// The tree's own cleanup, registered before this one, unmounts it next.
}

// makeCgroups makes one directory per cgroup hierarchy nspawn uses: the
// named systemd hierarchy and the unified one on a hybrid host, or the one
// unified hierarchy.
func (n *Node) makeCgroups() []string {
	n.t.Helper()
	var bases []string
	if _, err := os.Stat("/sys/fs/cgroup/cgroup.controllers"); err == nil {
		bases = []string{"/sys/fs/cgroup"}
	} else {
		for _, b := range []string{"/sys/fs/cgroup/systemd", "/sys/fs/cgroup/unified"} {
			if _, err := os.Stat(filepath.Join(b, "cgroup.procs")); err == nil {
				bases = append(bases, b)
			}
		}
	}
	var dirs []string
	for _, b := range bases {
		d := filepath.Join(b, "corium-boot-"+n.Name)
		if err := os.Mkdir(d, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			n.t.Fatalf("making cgroup %s: %v", d, err)
		}
		dirs = append(dirs, d)
	}
	return dirs
}

// removeCgroups kills, by PID, whatever is left in the node's cgroups and
// removes the directories, deepest first. It retries for a while: killed
// processes leave their cgroups only once they are reaped.
func (n *Node) removeCgroups() {
	deadline := time.Now().Add(30 * time.Second)
	for _, root := range n.cgroups {
		for {
			var dirs []string
			_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.IsDir() {
					dirs = append(dirs, p)
				}
				return nil
			})
			if len(dirs) == 0 {
				break
			}
			for _, d := range dirs {
				procs, _ := os.ReadFile(filepath.Join(d, "cgroup.procs"))
				for _, f := range strings.Fields(string(procs)) {
					if pid, err := strconv.Atoi(f); err == nil {
						_ = syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			}
			for i := len(dirs) - 1; i >= 0; i-- {
				_ = os.Remove(dirs[i])
			}
			if _, err := os.Stat(root); errors.Is(err, fs.ErrNotExist) {
				break
			}
			if time.Now().After(deadline) {
				n.t.Errorf("cgroup %s is still there", root)
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	n.cgroups = nil
}

// Console is what the node's PID 1 wrote to its console in the current (or
// last) boot.
func (n *Node) Console() string { return n.nspawnLog() }

func (n *Node) nspawnLog() string {
	data, _ := os.ReadFile(filepath.Join(n.dir, "nspawn.log"))
	return string(data)
}

func symlink(target, path string) error {
	_ = os.Remove(path)
	return os.Symlink(target, path)
}
