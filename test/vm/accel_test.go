package vm

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// kvmProbeTimeout bounds the probe: under KVM that works, the kernel reaches
// its panic (no root file system) in a second or two.
const kvmProbeTimeout = 15 * time.Second

var (
	accelOnce sync.Once
	accelArgs []string
	accelWhy  string
)

// accelerator is QEMU's -accel and -cpu: KVM only where a probe shows it
// makes progress (on these machines /dev/kvm exists but a guest under it
// does not run), else full emulation. CORIUM_VM_ACCEL=tcg|kvm skips the
// probe.
func accelerator(t testing.TB, img image) []string {
	t.Helper()
	accelOnce.Do(func() {
		accelArgs, accelWhy = chooseAccel(img)
		t.Logf("accelerator %s", accelWhy)
	})
	return accelArgs
}

func chooseAccel(img image) ([]string, string) {
	switch os.Getenv("CORIUM_VM_ACCEL") {
	case "kvm":
		return kvmArgs, "kvm (CORIUM_VM_ACCEL)"
	case "tcg":
		return tcgArgs, "tcg (CORIUM_VM_ACCEL)"
	}
	if why := probeKVM(img); why != "" {
		return tcgArgs, "tcg: " + why
	}
	return kvmArgs, "kvm: the probe kernel ran to its end"
}

var (
	kvmArgs = []string{"-accel", "kvm", "-cpu", "host"}
	tcgArgs = []string{"-accel", "tcg", "-cpu", tcgCPU()}
)

// probeKVM boots the kernel alone under KVM and says why KVM is not used,
// or "" when the kernel ran to its panic and QEMU exited.
func probeKVM(img image) string {
	f, err := os.OpenFile("/dev/kvm", os.O_RDWR, 0)
	if err != nil {
		return "no usable /dev/kvm (" + err.Error() + ")"
	}
	f.Close()
	dir, err := os.MkdirTemp("", "corium-vm-kvm-probe-")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(dir)
	console := filepath.Join(dir, "console")
	ctx, cancel := context.WithTimeout(context.Background(), kvmProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "qemu-system-x86_64", append(kvmArgs, "-nodefaults", "-no-user-config",
		"-display", "none", "-m", "256", "-no-reboot", "-kernel", img.Kernel,
		"-append", "console=ttyS0 panic=-1", "-serial", "file:"+console)...)
	out, err := cmd.CombinedOutput()
	text, _ := os.ReadFile(console)
	switch {
	case ctx.Err() != nil:
		return "the KVM probe made no progress in " + kvmProbeTimeout.String()
	case err != nil:
		return "the KVM probe failed: " + firstLine(string(out))
	case !strings.Contains(string(text), "Kernel panic"):
		return "the KVM probe kernel stopped early"
	}
	return ""
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// tcgCPU is the emulated CPU: the x86-64 baseline, which Debian's kernel
// and userland need and nothing more (with "max" the guest takes up features
// that cost more to emulate than they save), less SVM: qemu64 advertises
// AMD's virtualization, so udev loads kvm_amd in the guest, and its init
// under emulation once panicked a guest's kernel mid-boot. A node under test
// runs no VMs. CORIUM_VM_CPU overrides it.
func tcgCPU() string {
	if c := os.Getenv("CORIUM_VM_CPU"); c != "" {
		return c
	}
	return "qemu64,-svm"
}
