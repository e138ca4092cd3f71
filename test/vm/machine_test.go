package vm

import (
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/test/vm/wire"
)

const (
	// bootTimeout bounds one boot under TCG, a first boot's agent and
	// cloud-init included: about 2 minutes on idle cores, 6 with them
	// shared.
	bootTimeout = 10 * time.Minute
	// haltTimeout bounds an orderly poweroff.
	haltTimeout = 2 * time.Minute
	// baseCmdline is the kernel command line every boot has; QEMU boots the
	// kernel directly, so the test owns the whole line, as a PXE loader does.
	// No side channel crosses between emulated guests: mitigations=off
	// spares the emulator the kernel's speculation barriers.
	baseCmdline = "root=/dev/vda rw console=ttyS0 panic=-1 mitigations=off"
)

// Machine is one virtual machine: its disk (which survives its boots, so a
// second Start is a reboot of the same machine), its NIC on the test's
// private network, its kernel command line and its SMBIOS credentials.
type Machine struct {
	t    testing.TB
	Name string
	dir  string
	img  image

	Disk string
	Seed string // a NoCloud seed image, attached as a second disk ("" for none)
	MAC  string
	// Cmdline is added to baseCmdline at every boot (the config, for one).
	Cmdline []string
	// Credentials are handed over at every boot as SMBIOS type 11 strings,
	// the way a hypervisor passes systemd credentials.
	Credentials map[string]string
	// Secrets are the values that may never appear in what the test prints.
	Secrets *Secrets
	// BootTimeout bounds each boot when set (bootTimeout when zero): a test
	// that boots more machines than the cores at once needs more.
	BootTimeout time.Duration
	pxe         *pxeBoot // set by netBoot: booted from the network, not by -kernel
	// startHooks run at each Start before QEMU does: each adds QEMU
	// arguments and returns what undoes it once QEMU is gone (an emulated
	// TPM's process, for one).
	startHooks []func() (args []string, stop func())
	stops      []func()

	netLocal, netRemote string // the two unix datagram sockets of its NIC

	Boots  int    // how many times it was started
	BootID string // the current (or last) boot's id, without dashes
	cmd    *exec.Cmd
	exited chan struct{}
	ch     *channel
	start  time.Time
	booted time.Duration // from QEMU's start to systemd's answer, this boot
}

// newMachine is a machine on disk; it is stopped, by PID, and its files
// removed when the test ends, pass or fail.
func newMachine(t testing.TB, name, disk, mac string, secrets *Secrets) *Machine {
	t.Helper()
	m := &Machine{t: t, Name: name, dir: t.TempDir(), img: baseImage(t), Disk: disk, MAC: mac,
		Credentials: map[string]string{}, Secrets: secrets}
	m.netLocal = filepath.Join(m.dir, "net.sock")
	t.Cleanup(m.destroy)
	return m
}

// link puts a and b on one private network: each NIC's frames go to the
// other's socket and nowhere else.
func link(a, b *Machine) {
	a.netRemote, b.netRemote = b.netLocal, a.netLocal
}

// Start boots the machine with extra kernel parameters for this boot only.
// It does not wait: boot the machines of a test together, then WaitBooted.
func (m *Machine) Start(extra ...string) {
	m.t.Helper()
	if m.cmd != nil {
		m.t.Fatalf("%s is already running", m.Name)
	}
	m.Boots++
	args := append([]string{"-name", m.Name, "-nodefaults", "-no-user-config", "-display", "none",
		"-m", "1024", "-smp", "1", "-no-reboot",
		"-kernel", m.img.Kernel, "-initrd", m.img.Initrd,
		"-append", strings.Join(append(append([]string{baseCmdline}, m.Cmdline...), extra...), " "),
		"-serial", "file:" + m.consolePath(),
		"-drive", "file=" + m.Disk + ",format=raw,if=virtio,cache=unsafe",
		"-device", "virtio-rng-pci",
		"-device", "virtio-serial-pci",
		"-chardev", "socket,id=ctl,path=" + m.channelPath() + ",server=on,wait=off",
		"-device", "virtserialport,chardev=ctl,name=" + wire.PortName,
	}, accelerator(m.t, m.img)...)
	if m.pxe != nil {
		args = m.netBootArgs(args, extra)
	}
	if m.Seed != "" {
		args = append(args, "-drive", "file="+m.Seed+",format=raw,if=virtio,readonly=on")
	}
	if m.netRemote != "" {
		_ = os.Remove(m.netLocal)
		args = append(args,
			"-netdev", "dgram,id=net0,local.type=unix,local.path="+m.netLocal+",remote.type=unix,remote.path="+m.netRemote,
			"-device", "virtio-net-pci,netdev=net0,mac="+m.MAC)
	}
	for name, value := range m.Credentials {
		// From a file, so no secret is on QEMU's command line either.
		path := filepath.Join(m.dir, "credential."+name)
		if err := os.WriteFile(path, []byte("io.systemd.credential:"+name+"="+value), 0o600); err != nil {
			m.t.Fatal(err)
		}
		args = append(args, "-smbios", "type=11,path="+path)
	}
	for _, hook := range m.startHooks {
		more, stop := hook()
		args = append(args, more...)
		m.stops = append(m.stops, stop)
	}
	_ = os.Remove(m.channelPath())
	m.cmd = exec.Command("qemu-system-x86_64", args...)
	log, err := os.Create(filepath.Join(m.dir, fmt.Sprintf("qemu-%d.log", m.Boots)))
	if err != nil {
		m.t.Fatal(err)
	}
	m.cmd.Stdout, m.cmd.Stderr = log, log
	m.start = time.Now()
	if err := m.cmd.Start(); err != nil {
		log.Close()
		m.t.Fatalf("starting %s: %v", m.Name, err)
	}
	m.exited = make(chan struct{})
	go func(cmd *exec.Cmd, exited chan struct{}) {
		_ = cmd.Wait()
		log.Close()
		close(exited)
	}(m.cmd, m.exited)
}

func (m *Machine) consolePath() string {
	return filepath.Join(m.dir, fmt.Sprintf("console-%d.log", m.Boots))
}
func (m *Machine) channelPath() string { return filepath.Join(m.dir, "ctl.sock") }

// WaitBooted waits until guestd answers and systemd has finished the boot
// (running or degraded), and returns the state systemd reports.
func (m *Machine) WaitBooted() string {
	m.t.Helper()
	timeout := cmp.Or(m.BootTimeout, bootTimeout)
	deadline := m.start.Add(timeout)
	m.Dial()
	for {
		resp, err := m.call(wire.Request{Op: wire.OpExec, Argv: []string{"systemctl", "is-system-running", "--wait"}}, time.Until(deadline))
		state := strings.TrimSpace(string(resp.Output))
		switch {
		case err != nil:
			m.t.Fatalf("%s: boot did not finish within %v: %v\n%s", m.Name, timeout, err, m.consoleTail())
		case state == "running" || state == "degraded":
			m.booted = time.Since(m.start)
			// QEMU read them at its start; nothing on the host keeps them.
			m.removeCredentials()
			m.BootID = strings.ReplaceAll(strings.TrimSpace(m.MustExec("cat", "/proc/sys/kernel/random/boot_id")), "-", "")
			m.t.Logf("%s boot %d: %s after %v (wall clock, QEMU start to systemd's answer)", m.Name, m.Boots, state, m.booted.Round(100*time.Millisecond))
			return state
		case state == "maintenance" || state == "stopping":
			m.t.Fatalf("%s: system is %s\n%s", m.Name, state, m.consoleTail())
		}
		// Before the bus is up systemctl fails at once: ask again.
		time.Sleep(500 * time.Millisecond)
	}
}

// Dial connects the command channel, if it is not yet: guestd answers early
// in the boot, so a test can watch a boot that has not finished (WaitBooted
// dials by itself).
func (m *Machine) Dial() {
	m.t.Helper()
	if m.ch != nil {
		return
	}
	ch, err := dialChannel(m.channelPath(), m.exited)
	if err != nil {
		m.t.Fatalf("%s: %v\n%s", m.Name, err, m.consoleTail())
	}
	m.ch = ch
}

// call sends a request, failing if the machine is down or QEMU exits.
func (m *Machine) call(req wire.Request, timeout time.Duration) (wire.Response, error) {
	if m.ch == nil {
		return wire.Response{}, fmt.Errorf("%s is not running", m.Name)
	}
	if timeout <= 0 {
		timeout = time.Second
	}
	req.TimeoutMS = timeout.Milliseconds()
	type result struct {
		resp wire.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, err := m.ch.call(req, timeout+5*time.Second)
		done <- result{resp, err}
	}()
	select {
	case r := <-done:
		return r.resp, r.err
	case <-m.exited:
		return wire.Response{}, fmt.Errorf("%s: qemu exited", m.Name)
	}
}

// Exec runs a command in the guest as root and returns its combined output;
// the error says how it ended when it did not exit 0.
func (m *Machine) Exec(args ...string) (string, error) {
	return m.ExecIn(2*time.Minute, nil, args...)
}

// ExecIn is Exec with a timeout and standard input.
func (m *Machine) ExecIn(timeout time.Duration, stdin []byte, args ...string) (string, error) {
	resp, err := m.call(wire.Request{Op: wire.OpExec, Argv: args, Stdin: stdin}, timeout)
	if err != nil {
		return "", err
	}
	out := string(resp.Output)
	switch {
	case resp.Err != "":
		return out, fmt.Errorf("%s: %s", strings.Join(args, " "), resp.Err)
	case resp.Exit != 0:
		return out, fmt.Errorf("%s: exit status %d", strings.Join(args, " "), resp.Exit)
	}
	return out, nil
}

// MustExec is Exec failing the test on error.
func (m *Machine) MustExec(args ...string) string {
	m.t.Helper()
	out, err := m.Exec(args...)
	if err != nil {
		m.t.Fatalf("%s: %v\n%s", m.Name, err, m.Secrets.Redact(m.t, out))
	}
	return out
}

// Poweroff shuts the machine down the orderly way and waits for QEMU to
// exit (-no-reboot: a guest that halts or reboots ends QEMU).
func (m *Machine) Poweroff() {
	m.t.Helper()
	if m.cmd == nil {
		return
	}
	start := time.Now()
	if _, err := m.Exec("systemctl", "poweroff", "--no-block"); err != nil {
		m.t.Logf("%s: asking for a poweroff: %v", m.Name, err)
	}
	select {
	case <-m.exited:
		m.t.Logf("%s powered off in %v", m.Name, time.Since(start).Round(100*time.Millisecond))
	case <-time.After(haltTimeout):
		m.t.Errorf("%s did not power off within %v; killing it\n%s", m.Name, haltTimeout, m.consoleTail())
		m.kill()
	}
	m.down()
}

func (m *Machine) removeCredentials() {
	for name := range m.Credentials {
		_ = os.Remove(filepath.Join(m.dir, "credential."+name))
	}
}

func (m *Machine) kill() {
	_ = m.cmd.Process.Signal(syscall.SIGKILL)
	<-m.exited
}

func (m *Machine) down() {
	m.removeCredentials()
	for _, stop := range m.stops {
		stop()
	}
	m.stops = nil
	if m.ch != nil {
		m.ch.close()
	}
	m.cmd, m.ch = nil, nil
	_ = os.Remove(m.channelPath())
	_ = os.Remove(m.netLocal)
}

// destroy stops a machine still running when the test ends, after showing
// what it was doing if the test failed.
func (m *Machine) destroy() {
	if m.cmd == nil {
		return
	}
	if m.t.Failed() {
		if out, err := m.ExecIn(30*time.Second, nil, "journalctl", "-b", "--no-pager", "-n", "150"); err == nil {
			m.t.Logf("%s: the journal's last lines:\n%s", m.Name, m.Secrets.Redact(m.t, out))
		}
		m.t.Logf("%s: %s", m.Name, m.consoleTail())
	}
	m.kill()
	m.down()
}

// consoleTail is the end of the current boot's serial console.
func (m *Machine) consoleTail() string {
	data, _ := os.ReadFile(m.consolePath())
	lines := strings.Split(string(data), "\n")
	if len(lines) > 60 {
		lines = lines[len(lines)-60:]
	}
	qemu, _ := os.ReadFile(filepath.Join(m.dir, fmt.Sprintf("qemu-%d.log", m.Boots)))
	return m.Secrets.Redact(m.t, "console (last lines):\n"+strings.Join(lines, "\n")+"\nqemu: "+string(qemu))
}

// consoleText is the current boot's serial console as QEMU wrote it.
func (m *Machine) consoleText() string {
	data, _ := os.ReadFile(m.consolePath())
	return string(data)
}
