package ipxe

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/host"
)

// The stub kernels (doc.go): testdata/bzstub.S and efistub.S, built.
var (
	//go:embed testdata/bzstub.bin
	bzstubImage []byte
	//go:embed testdata/efistub.efi
	efistubImage []byte
)

// What iPXE and QEMU need of the machine, from Debian's packages:
// qemu-system-x86 (which depends on seabios and ipxe-qemu) for BIOS, ovmf
// and ipxe for UEFI.
const (
	qemu       = "qemu-system-x86_64"
	pxeROM     = "/usr/lib/ipxe/qemu/efi-virtio.rom" // ipxe-qemu: the NIC's ROM, legacy and EFI
	ovmfImage  = "/usr/share/ovmf/OVMF.fd"           // ovmf
	ipxeEFIApp = "/usr/lib/ipxe/ipxe.efi"            // ipxe
)

// firmware is one way iPXE runs on a PXE node.
type firmware struct {
	name    string
	kernel  []byte        // the stub the script's kernel line fetches
	marker  string        // the stub's line: marker, hex, markerEnd
	needs   []string      // files of Debian's packages
	timeout time.Duration // for one run, on a loaded machine
	args    func(tftp string) []string
	// cmdline is the kernel command line from the bytes the stub printed.
	cmdline func(raw []byte) (string, error)
}

const markerEnd = " CORIUM-STUB-END"

// common are QEMU's arguments on either firmware: no devices but the
// serial console (iPXE's console too: graphics=off), the PXE NIC on QEMU's
// user-mode network (restrict=on: its DHCP and TFTP, nothing of the host),
// and isa-debug-exit, which the stub writes to end QEMU at once.
func common(tftp string) []string {
	return []string{"-nodefaults", "-no-user-config", "-display", "none", "-machine", "graphics=off",
		"-accel", "tcg", "-m", "256", "-no-reboot", "-serial", "stdio",
		"-netdev", "user,id=pxe,restrict=on,tftp=" + tftp + ",bootfile=boot.ipxe",
		"-device", "isa-debug-exit,iobase=0xf4,iosize=4"}
}

var (
	// bios is SeaBIOS running the NIC's iPXE ROM, the only boot device, as
	// the VM test's PXE machine boots; a BIOS that finds nothing to boot
	// reboots at once, which ends QEMU (-no-reboot).
	bios = &firmware{
		name:    "BIOS",
		kernel:  bzstubImage,
		marker:  "CORIUM-STUB-CMDLINE ",
		needs:   []string{pxeROM},
		timeout: 3 * time.Minute,
		args: func(tftp string) []string {
			// QEMU's own ROM for the NIC (pxeROM, found on its search path)
			return append(common(tftp), "-boot", "strict=on,reboot-timeout=0",
				"-device", "virtio-net-pci,netdev=pxe,bootindex=1")
		},
		cmdline: func(raw []byte) (string, error) { return string(raw), nil },
	}
	// uefi is OVMF starting ipxe.efi (the NIC without a ROM: iPXE drives
	// it), which autoboots as the ROM does.
	uefi = &firmware{
		name:    "UEFI",
		kernel:  efistubImage,
		marker:  "CORIUM-STUB-EFI-OPTIONS ",
		needs:   []string{ovmfImage, ipxeEFIApp},
		timeout: 5 * time.Minute,
		args: func(tftp string) []string {
			return append(common(tftp), "-bios", ovmfImage, "-kernel", ipxeEFIApp,
				"-device", "virtio-net-pci,netdev=pxe,romfile=")
		},
		cmdline: linuxEFICmdline,
	}
)

// banner is what iPXE prints before it autoboots and again when autoboot
// returned: a second one means the script booted nothing.
const banner = "Press Ctrl-B for the iPXE command line"

var versionRE = regexp.MustCompile(`iPXE (\d+\.\d+\.\d+[^\s\x1b]*)`)

var versions sync.Map // firmware name: iPXE's version, logged once

// ipxeBoots runs script as iPXE on BIOS runs a PXE node's boot script and
// says which command line the kernel it boots receives; booted is false
// when it boots nothing.
func ipxeBoots(t *testing.T, script string) (cmdline string, booted bool) {
	t.Helper()
	return bios.boots(t, script)
}

// ipxeBootsUEFI is ipxeBoots on UEFI, where iPXE puts the image's name
// before its arguments.
func ipxeBootsUEFI(t *testing.T, script string) (cmdline string, booted bool) {
	t.Helper()
	return uefi.boots(t, script)
}

// require skips (or, under host.RequireEnv, fails) a test that cannot run
// the firmware here.
func (f *firmware) require(t *testing.T) {
	t.Helper()
	host.RequireCommands(t, qemu)
	for _, p := range f.needs {
		if _, err := os.Stat(p); err != nil {
			why := fmt.Sprintf("needs %s (%v); the test command installs it (make test)", p, err)
			if os.Getenv(host.RequireEnv) == "1" {
				t.Fatalf("cannot run: %s", why)
			}
			t.Skip(why)
		}
	}
}

// boots runs script on the firmware: the kernel command line the stub
// printed, or booted false when iPXE fetched and ran the script and
// returned (or the firmware found nothing more to boot).
func (f *firmware) boots(t *testing.T, script string) (string, bool) {
	t.Helper()
	r := f.run(t, script)
	return r.line, r.booted
}

// outcome is one boot: what boots says, and what iPXE printed of the
// script. unknown says why the boot tells nothing of what the reader
// reads: a fetch that failed in a way no file served could make succeed.
type outcome struct {
	line    string
	booted  bool
	said    string // iPXE's console from the script on
	unknown string
}

// The reader takes every fetch to succeed, and every image a kernel line
// names to be a kernel: what iPXE does at boot when one fails is beyond a
// file. So every name the script fetches is served, each the stub kernel:
// the script's own words that TFTP can serve, put there first, then each
// name iPXE failed to fetch (a setting expanded to it), once more a run,
// until iPXE fetches all it asks for or asks for one TFTP cannot serve.
func (f *firmware) run(t *testing.T, script string) outcome {
	t.Helper()
	f.require(t)
	// Not t.TempDir: a subtest's name may hold a comma, which ends
	// QEMU's tftp= option.
	dir, err := os.MkdirTemp("", "corium-ipxe-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.WriteFile(filepath.Join(dir, "boot.ipxe"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	serve := func(name string) bool {
		p := filepath.Join(dir, name)
		if !servable(name) {
			return false
		}
		if _, err := os.Lstat(p); err == nil {
			return false // served already
		}
		if err := os.WriteFile(p, f.kernel, 0o644); err != nil {
			t.Fatal(err)
		}
		return true
	}
	for _, w := range strings.FieldsFunc(script, func(r rune) bool { return r < 0x80 && isSpace(byte(r)) }) {
		serve(w)
	}
	for attempt := 1; ; attempt++ {
		r := f.once(t, dir)
		failed := failedFetches(r.said)
		if len(failed) == 0 {
			return r
		}
		more := false
		for _, ff := range failed {
			if ff.why == "No such file or directory" && serve(ff.name) {
				more = true
				continue
			}
			if ff.why != "No such file or directory" || !servable(ff.name) {
				r.unknown = fmt.Sprintf("iPXE could not fetch %q (%s), and TFTP cannot serve it", ff.name, ff.why)
				return r
			}
		}
		if !more || attempt == 5 {
			r.unknown = fmt.Sprintf("iPXE still fails to fetch %q (%s) served", failed[0].name, failed[0].why)
			return r
		}
		t.Logf("%s: again, with %s served", f.name, failed[0].name)
	}
}

// isSpace is C's isspace, which iPXE splits a line's words on.
func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

// servable says whether a relative URI names a file QEMU's TFTP serves
// as it stands: a plain name, which iPXE neither decodes (%), cuts (? #),
// reads a scheme from (:) nor finds in a directory (/).
func servable(name string) bool {
	if name == "" || name == "." || name == ".." || name == "boot.ipxe" || len(name) > 200 {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; c <= ' ' || c >= 0x7f || strings.IndexByte("%?#:/\\", c) >= 0 {
			return false
		}
	}
	return true
}

// fetchFailure is a download iPXE reported failed: "NAME... WHY (URL)".
type fetchFailure struct{ name, why string }

var fetchFailedRE = regexp.MustCompile(`(?m)^(\S+)\.\.\. ([^\r\n]*?) \(http://ipxe\.org/[0-9a-f]{8}\)`)

func failedFetches(said string) []fetchFailure {
	var out []fetchFailure
	for _, m := range fetchFailedRE.FindAllStringSubmatch(said, -1) {
		out = append(out, fetchFailure{m[1], m[2]})
	}
	return out
}

// once boots QEMU on the TFTP directory dir.
func (f *firmware) once(t *testing.T, dir string) outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, qemu, f.args(dir)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", qemu, err)
	}
	var (
		console []byte
		raw     []byte
		booted  bool
		done    bool
	)
	buf := make([]byte, 4096)
	for !done {
		n, rerr := out.Read(buf)
		console = append(console, buf[:n]...)
		if i := bytes.Index(console, []byte(f.marker)); i >= 0 {
			rest := console[i+len(f.marker):]
			if j := bytes.Index(rest, []byte(markerEnd)); j >= 0 {
				if raw, err = hex.DecodeString(string(rest[:j])); err != nil {
					cancel()
					t.Fatalf("%s: the stub's line is not hex: %v\n%s", f.name, err, tail(console))
				}
				booted, done = true, true
			}
		}
		if bytes.Count(console, []byte(banner)) >= 2 {
			done = true
		}
		if rerr != nil {
			if !errors.Is(rerr, io.EOF) && !errors.Is(rerr, os.ErrClosed) {
				t.Logf("%s: reading the console: %v", f.name, rerr)
			}
			break
		}
	}
	cancel() // QEMU, if the stub did not end it already
	_, _ = io.Copy(io.Discard, out)
	_ = cmd.Wait()
	took := time.Since(start)
	text := string(console)
	switch {
	case ctx.Err() == context.DeadlineExceeded && !done:
		t.Fatalf("%s: no answer from iPXE in %s\n%s", f.name, f.timeout, tail(console))
	case !strings.Contains(text, "boot.ipxe... ok"):
		// Without the script fetched, booting nothing says nothing.
		t.Fatalf("%s: iPXE did not fetch the script (QEMU: %s)\n%s", f.name, strings.TrimSpace(stderr.String()), tail(console))
	case !booted && !done && !strings.Contains(text, "No bootable device"):
		t.Fatalf("%s: QEMU ended with neither the stub's line nor iPXE's return (QEMU: %s)\n%s", f.name, strings.TrimSpace(stderr.String()), tail(console))
	}
	if m := versionRE.FindStringSubmatch(text); m != nil {
		if _, seen := versions.LoadOrStore(f.name, m[1]); !seen {
			t.Logf("%s: iPXE %s", f.name, m[1])
		}
	}
	said := text[strings.Index(text, "boot.ipxe... ok")+len("boot.ipxe... ok"):]
	if i := strings.Index(said, f.marker); i >= 0 {
		said = said[:i]
	}
	said = strings.TrimSpace(strings.ReplaceAll(said, "\x1b", "^["))
	if !booted {
		t.Logf("%s: iPXE boots nothing (%s)", f.name, took.Round(100*time.Millisecond))
		return outcome{said: said}
	}
	line, err := f.cmdline(raw)
	if err != nil {
		t.Fatalf("%s: %v", f.name, err)
	}
	t.Logf("%s: iPXE boots a kernel with a command line of %d bytes (%s)", f.name, len(line), took.Round(100*time.Millisecond))
	return outcome{line: line, booted: true, said: said}
}

// tail is the end of a console, for a failure's message.
func tail(console []byte) string {
	const max = 3000
	s := strings.ReplaceAll(string(console), "\x1b", "^[")
	if len(s) > max {
		s = "..." + s[len(s)-max:]
	}
	return s
}

// The oracle's control: a plain script boots the stub with its arguments
// (iPXE joins them with one blank), which on UEFI come after the image's
// name; a name a setting makes is served when iPXE first fails to fetch
// it.
func TestOracleBootsTheStub(t *testing.T) {
	for _, tc := range []struct {
		name, script string
		boots        func(*testing.T, string) (string, bool)
		want         string
	}{
		{"BIOS", "#!ipxe\nkernel vmlinuz a  b\nboot\n", ipxeBoots, "a b"},
		{"UEFI", "#!ipxe\nkernel vmlinuz a  b\nboot\n", ipxeBootsUEFI, "vmlinuz a b"},
		{"BIOS, a name made by a setting", "#!ipxe\nset n vml\nkernel ${n}inuz3 a\nboot\n", ipxeBoots, "a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if line, booted := tc.boots(t, tc.script); !booted || line != tc.want {
				t.Errorf("booted %v with %q, want %q", booted, line, tc.want)
			}
		})
	}
}
