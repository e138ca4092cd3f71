package report

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/firewall"
	"github.com/corium/corium-agent/internal/firewall/nft"
	"github.com/corium/corium-agent/internal/status/listen"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// The helper process: this test binary run again with these set listens
// where it is told, under the name it is told, until its stdin closes.
const (
	helperListen = "CORIUM_TEST_LISTEN" // "tcp4 0.0.0.0:16443"
	helperComm   = "CORIUM_TEST_COMM"
)

// TestListenHelper is not a test: it is the helper process's body, and
// returns at once in a test run.
func TestListenHelper(t *testing.T) {
	spec := os.Getenv(helperListen)
	if spec == "" {
		return
	}
	network, addr, _ := strings.Cut(spec, " ")
	// The comm is what status names a process by; the kernel keeps the
	// thread group leader's, which /proc/self/comm writes.
	if err := os.WriteFile("/proc/self/comm", []byte(os.Getenv(helperComm)), 0); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	os.Stdout.WriteString("ready\n")
	_, _ = io.Copy(io.Discard, os.Stdin)
	os.Exit(0)
}

// cgroupRoot is where the unified cgroup hierarchy is mounted: /sys/fs/cgroup
// on a cgroup v2 host, /sys/fs/cgroup/unified on a hybrid one.
func cgroupRoot(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(b)) {
		fields := strings.Fields(line)
		if i := slices.Index(fields, "-"); i > 4 && i+1 < len(fields) && fields[i+1] == "cgroup2" {
			return fields[4]
		}
	}
	if os.Getenv(host.RequireEnv) == "1" {
		t.Fatal("privileged test cannot run: no cgroup2 hierarchy is mounted")
	}
	t.Skip("no cgroup2 hierarchy is mounted")
	return ""
}

// cmdlineSecret stands for a secret on a listener's command line.
var cmdlineSecret = "cmdline-secret-" + fixture.RandHex(8)

// helper is one listening process in a namespace and a cgroup.
type helper struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	done  bool
}

// startHelper runs a process named comm inside ns, moves it into cgroup
// (created under the unified hierarchy, removed after) and waits until it
// listens on spec.
func startHelper(t *testing.T, ns *netns.Netns, cgroup, comm, spec string) *helper {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// A secret on the command line, as a component's flags may carry one:
	// status names the process by its comm and never shows it.
	cmd := exec.Command("ip", "netns", "exec", ns.Name, self, "-test.run=^TestListenHelper$", "--", "--etcd-password="+cmdlineSecret)
	cmd.Env = append(os.Environ(), helperListen+"="+spec, helperComm+"="+comm)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(cgroup, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	h := &helper{cmd: cmd, stdin: stdin}
	t.Cleanup(h.stop)
	// ip execs the helper in place: its pid is the helper's.
	if err := os.WriteFile(filepath.Join(cgroup, "cgroup.procs"), []byte(strconv.Itoa(cmd.Process.Pid)), 0); err != nil {
		t.Fatalf("moving %s into %s: %v", comm, cgroup, err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "ready\n" {
		t.Fatalf("%s on %s did not start: %q %v", comm, spec, line, err)
	}
	return h
}

func (h *helper) stop() {
	if h.done {
		return
	}
	h.done = true
	_ = h.stdin.Close()
	_ = h.cmd.Wait()
}

// TestLiveListeners opens listeners in a node's namespace from processes in
// cgroups named as k0s's units, a pod's and sshd's, and reads them with the
// real sock_diag and /proc: a cluster listener on a port the guard does not
// hold is named and degrades the verdict; with its port's rule in the guard
// it is guarded; sshd is information whatever else happens; loopback and the
// overlay's own address are not listed.
func TestLiveListeners(t *testing.T) {
	host.RequireRoot(t, "ip", "wg", "wg-quick", "wireguard-go", "nft", "ping")
	slice := filepath.Join(cgroupRoot(t), "corium-test-"+fixture.RandHex(6)+".slice")
	t.Cleanup(func() { removeCgroups(t, slice) })
	lab := newLiveLab(t, "lsn")
	nsA, a := lab.nsA, lab.a
	o := a.options(t, netns.WireGuardClient(t))

	k0sUnit := filepath.Join(slice, "k0scontroller.service")
	pod := filepath.Join(slice, "kubepods.slice", "kubepods-besteffort.slice", "kubepods-besteffort-pod"+fixture.RandHex(4)+".slice")
	api := startHelper(t, nsA, k0sUnit, "kube-apiserver", "tcp4 0.0.0.0:16443")
	startHelper(t, nsA, pod, "kube-router", "tcp 0.0.0.0:10250") // a dual-stack wildcard, as Go binds one
	startHelper(t, nsA, k0sUnit, "kube-scheduler", "tcp4 127.0.0.1:10259")
	startHelper(t, nsA, k0sUnit, "konnectivity-se", "tcp4 10.77.0.1:8132")
	startHelper(t, nsA, filepath.Join(slice, "sshd.service"), "sshd", "tcp4 0.0.0.0:2222")

	sockets := func(r *Report) map[string]listen.Listener {
		t.Helper()
		if r.Listeners == nil {
			t.Fatalf("no listeners read; unknown %v", r.Unknown)
		}
		m := map[string]listen.Listener{}
		for _, l := range r.Listeners.Sockets {
			m[strconv.Itoa(l.Port)+"/"+l.Proto] = l
		}
		return m
	}
	sshdIsInformation := func(t *testing.T, got map[string]listen.Listener) {
		t.Helper()
		if s := got["2222/tcp"]; s.Class != listen.Host || s.Process != "sshd" || !strings.HasSuffix(s.Unit, "sshd.service") {
			t.Errorf("sshd read as %+v, want a host service", s)
		}
		for _, p := range []string{"10259/tcp", "8132/tcp"} {
			if s, ok := got[p]; ok {
				t.Errorf("%s is on loopback or the overlay, yet listed: %+v", p, s)
			}
		}
		if s := got["51820/udp"]; s.Class != listen.WireGuardPort {
			t.Errorf("the overlay's listen port read as %+v", s)
		}
	}

	t.Run("unguarded", func(t *testing.T) {
		r := Inspect(context.Background(), o)
		got := sockets(r)
		want := "degraded: firewall: 16443/tcp on 0.0.0.0 (kube-apiserver (pid " + strconv.Itoa(api.cmd.Process.Pid) + ") in k0scontroller.service) answers the underlay and the guard does not cover it"
		if !strings.HasPrefix(r.Verdict.Line, want) {
			t.Errorf("verdict\n got %q\nwant %q...\n%s", r.Verdict.Line, want, textOf(r))
		}
		if s := got["16443/tcp"]; s.Class != listen.Unguarded {
			t.Errorf("16443 read as %+v", s)
		}
		if s := got["10250/tcp"]; s.Class != listen.Guarded || s.Process != "kube-router" || !strings.HasPrefix(s.Unit, "kubepods.slice/") || s.Address != "::" {
			t.Errorf("10250 read as %+v, want the pod's, guarded", s)
		}
		sshdIsInformation(t, got)
		text := textOf(r)
		if !strings.Contains(text, "  16443/tcp on 0.0.0.0: UNGUARDED, the cluster's: kube-apiserver") {
			t.Errorf("the text does not name it:\n%s", text)
		}
		js, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile("/proc/" + strconv.Itoa(api.cmd.Process.Pid) + "/cmdline"); !strings.Contains(string(b), cmdlineSecret) {
			t.Errorf("the secret is not on the listener's command line, so this proves nothing")
		}
		if strings.Contains(text+string(js), cmdlineSecret) {
			t.Errorf("status shows a listener's command line")
		}
	})

	t.Run("its rule in the guard", func(t *testing.T) {
		orig := loadGuard(t, a.root)
		g := orig
		g.Ports = append(slices.Clone(g.Ports), firewall.Port{Number: 16443, Proto: "tcp"})
		write(t, a.root, firewall.FilePath, string(g.File()))
		defer write(t, a.root, firewall.FilePath, string(orig.File()))
		if err := nsA.Do(func() error { return nft.ApplyRendered(context.Background(), a.root) }); err != nil {
			t.Fatal(err)
		}
		r := Inspect(context.Background(), o)
		got := sockets(r)
		if s := got["16443/tcp"]; s.Class != listen.Guarded || s.Unit != "k0scontroller.service" {
			t.Errorf("16443 read as %+v, want guarded", s)
		}
		if p := listenerProblems(r); len(p) != 0 {
			t.Errorf("listener problems %q", p)
		}
		sshdIsInformation(t, got)
	})

	t.Run("sshd alone is information", func(t *testing.T) {
		if err := nsA.Do(func() error { return nft.ApplyRendered(context.Background(), a.root) }); err != nil {
			t.Fatal(err)
		}
		api.stop()
		r := Inspect(context.Background(), o)
		if r.Verdict.Line != "ok (could not check: unit states)" {
			t.Errorf("verdict %q\n%s", r.Verdict.Line, textOf(r))
		}
		got := sockets(r)
		if _, ok := got["16443/tcp"]; ok {
			t.Errorf("16443 still listed after its process ended")
		}
		sshdIsInformation(t, got)
	})
}

// removeCgroups removes a cgroup tree, deepest first; its processes have
// ended by then.
func removeCgroups(t *testing.T, dir string) {
	var dirs []string
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	slices.Reverse(dirs)
	for _, d := range dirs {
		if err := os.Remove(d); err != nil {
			t.Errorf("removing cgroup %s: %v", d, err)
		}
	}
}
