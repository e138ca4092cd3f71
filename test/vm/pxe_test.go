package vm

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// macPXE is c1's second NIC, the one it PXE-boots from.
const macPXE = "52:54:00:c0:00:99"

// pxeBoot is a machine that boots from the network as a PXE node does:
// QEMU's PXE ROM (iPXE) takes an address from QEMU's user-mode network,
// which with restrict=on offers DHCP and TFTP and reaches no host address,
// fetches the script `corium-agent cmdline --ipxe` made, then the kernel
// and the initrd over TFTP. The root file system stays on the machine's
// disk (root= on the script's line).
type pxeBoot struct {
	doc []byte // the document the script's kernel line carries
	dir string // the TFTP root: the script, the kernel, the initrd
}

// netBoot makes m boot from the network with doc on its kernel command
// line; its disk must leave the PXE NIC alone (pxeNICUnmanaged).
func (m *Machine) netBoot(doc []byte) {
	m.pxe = &pxeBoot{doc: doc, dir: filepath.Join(m.dir, "tftp")}
	if err := os.MkdirAll(m.pxe.dir, 0o755); err != nil {
		m.t.Fatal(err)
	}
	for name, src := range map[string]string{"vmlinuz": m.img.Kernel, "initrd.img": m.img.Initrd} {
		if err := os.Symlink(src, filepath.Join(m.pxe.dir, name)); err != nil {
			m.t.Fatal(err)
		}
	}
}

// netBootArgs is args with QEMU's -kernel, -initrd and -append replaced
// by the PXE NIC (pxeArgs).
func (m *Machine) netBootArgs(args, extra []string) []string {
	m.t.Helper()
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-kernel", "-initrd", "-append":
			i++
		default:
			out = append(out, args[i])
		}
	}
	return append(out, m.pxeArgs(extra)...)
}

// pxeArgs writes this boot's script, the boot's extra parameters on its
// kernel line, and returns QEMU's arguments for the PXE NIC, which is the
// only boot device: SeaBIOS and iPXE write to the serial console
// (graphics=off), so the console shows what iPXE fetched.
func (m *Machine) pxeArgs(extra []string) []string {
	m.t.Helper()
	appendArgs := strings.Join(append(append([]string{baseCmdline}, m.Cmdline...), extra...), " ")
	cmd := exec.Command(built(m.t).Agent, "cmdline", "--ipxe", "--append", appendArgs, "-")
	cmd.Stdin = bytes.NewReader(m.pxe.doc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	script, err := cmd.Output()
	if err != nil {
		m.t.Fatalf("corium-agent cmdline --ipxe: %v\n%s", err, stderr.String())
	}
	if err := os.WriteFile(filepath.Join(m.pxe.dir, "boot.ipxe"), script, 0o644); err != nil {
		m.t.Fatal(err)
	}
	return []string{"-machine", "graphics=off",
		"-netdev", "user,id=pxe,restrict=on,tftp=" + m.pxe.dir + ",bootfile=boot.ipxe",
		"-device", "virtio-net-pci,netdev=pxe,mac=" + macPXE + ",bootindex=1"}
}

// kernelLine is the kernel command line this boot's script hands over.
func (p *pxeBoot) kernelLine(t testing.TB) string {
	t.Helper()
	script, err := os.ReadFile(filepath.Join(p.dir, "boot.ipxe"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(script), "\n") {
		if rest, ok := strings.CutPrefix(l, "kernel vmlinuz "); ok {
			return rest
		}
	}
	t.Fatalf("the iPXE script has no kernel line:\n%s", script)
	return ""
}

// pxeNICUnmanaged leaves the PXE NIC without an address or a route, as a
// PXE node's boot NIC that is not its underlay: the node's routes and the
// address it registers are the underlay's alone.
func pxeNICUnmanaged(s *staging) {
	s.WriteFile("/etc/NetworkManager/system-connections/pxe.nmconnection", []byte(`[connection]
id=pxe
type=ethernet
autoconnect=true

[ethernet]
mac-address=`+strings.ToUpper(macPXE)+`

[ipv4]
method=disabled

[ipv6]
method=disabled
`), 0o600)
}

// assertNetBooted checks that m's kernel came over the network (iPXE's
// lines on the console: the script, the kernel and the initrd fetched by
// TFTP), that /proc/cmdline is the script's kernel line (the pin and the
// document, iPXE adding nothing), and that the PXE NIC holds no address
// and no route.
func assertNetBooted(t *testing.T, m *Machine) {
	t.Helper()
	for _, missing := range netBootMissing(m.consoleText()) {
		t.Errorf("%s: %s", m.Name, missing)
	}
	line, want := strings.TrimSpace(m.read("/proc/cmdline")), m.pxe.kernelLine(t)
	if line != want {
		t.Errorf("%s: /proc/cmdline is not the iPXE script's kernel line:\n got %q\nwant %q", m.Name, line, want)
	}
	words := strings.Fields(line)
	if len(words) < 2 || !strings.HasPrefix(words[0], "corium.config.sha256=") || !strings.HasPrefix(words[1], "corium.config=data:;base64,") {
		t.Errorf("%s: /proc/cmdline does not start with the pin and the document: %.80q", m.Name, line)
	}
	dev := ""
	for _, l := range strings.Split(m.MustExec("ip", "-o", "link"), "\n") {
		if strings.Contains(l, "link/ether "+macPXE) {
			dev = strings.TrimSuffix(strings.Fields(l)[1], ":")
		}
	}
	if dev == "" {
		t.Fatalf("%s: no NIC with the PXE NIC's MAC %s", m.Name, macPXE)
	}
	addrs := m.MustExec("ip", "-o", "addr", "show", "dev", dev)
	routes := m.MustExec("ip", "route", "show", "table", "all")
	if strings.Contains(addrs, " inet") || strings.Contains(routes, "dev "+dev+" ") || strings.Contains(routes, "10.0.2.") {
		t.Errorf("%s: the PXE NIC %s has an address or a route:\n%s\n%s", m.Name, dev, addrs, routes)
	}
	t.Logf("%s: PXE-booted by iPXE over TFTP; /proc/cmdline %d bytes, the pin and the document first; %s holds no address and no route", m.Name, len(line), dev)
}

// netBootMissing is what a console lacks to show a kernel that came over
// the network by iPXE: iPXE's banner and its lines for the script, the
// kernel and the initrd fetched by TFTP.
func netBootMissing(console string) []string {
	var missing []string
	if !strings.Contains(console, "iPXE") {
		missing = append(missing, "the console has no word of iPXE")
	}
	for _, file := range []string{"tftp://10.0.2.2/boot.ipxe", "vmlinuz", "initrd.img"} {
		if !fetched(console, file) {
			missing = append(missing, "the console lacks iPXE's \""+file+"...\" line ending in ok: the kernel did not come over the network")
		}
	}
	return missing
}

// assertNotNetBooted is the net-boot check's negative control: m, booted
// by QEMU's -kernel in the same round, must fail the console check, or the
// check would pass a machine that never saw iPXE.
func assertNotNetBooted(t *testing.T, m *Machine) {
	t.Helper()
	if missing := netBootMissing(m.consoleText()); len(missing) == 0 {
		t.Errorf("negative control: %s, booted by -kernel, passes the net-boot console check, so the check proves nothing", m.Name)
	} else {
		t.Logf("negative control: %s, booted by -kernel, fails the net-boot check as it should (%d of its 4 marks missing)", m.Name, len(missing))
	}
}

// fetched says whether iPXE's console shows file fetched: its line
// "FILE... ok", the progress it draws with backspaces in between.
func fetched(console, file string) bool {
	for _, l := range strings.Split(console, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, file+"...") && strings.HasSuffix(l, " ok") {
			return true
		}
	}
	return false
}
