package ipxe

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/corium/corium-agent/internal/testutil/host"
)

// linuxCommandLineSize is COMMAND_LINE_SIZE on x86 (arch/x86/include/asm/
// setup.h), the bytes of boot_command_line with its NUL.
const linuxCommandLineSize = 2048

// linuxEFICmdline is the command line Linux's EFI stub makes of an image's
// load options (raw, LoadOptionsSize bytes of UTF-16LE), as
// efi_convert_cmdline does (drivers/firmware/efi/libstub/
// efi-stub-helper.c, Linux 6.1 and 6.12 alike): the options up to a NUL or
// a newline, in UTF-8; when that is COMMAND_LINE_SIZE bytes or more, cut
// at the last blank outside double quotes before the limit. iPXE's options
// hold one code unit per byte of its command line (efi_image_cmdline's
// efi_snprintf), so a byte over 0x7f reaches the kernel as two; a surrogate
// never comes from iPXE and is refused rather than modelled.
func linuxEFICmdline(raw []byte) (string, error) {
	if len(raw)%2 != 0 {
		return "", fmt.Errorf("the load options are %d bytes, not UTF-16", len(raw))
	}
	units := make([]uint16, len(raw)/2)
	for i := range units {
		units[i] = binary.LittleEndian.Uint16(raw[2*i:])
	}
	n, safe, inQuote := 0, 0, false
	for i := 0; n < linuxCommandLineSize && i < len(units); i++ {
		c := units[i]
		if c < 0x80 {
			if c == 0 || c == '\n' {
				break
			}
			if c == '"' {
				inQuote = !inQuote
			} else if !inQuote && (c == ' ' || (c >= '\t' && c <= '\r')) {
				safe = n
			}
			n++
			continue
		}
		if c >= 0xd800 && c <= 0xdfff {
			return "", fmt.Errorf("the load options hold a UTF-16 surrogate (%#x), which iPXE never writes", c)
		}
		n += 2
		if c >= 0x800 {
			n++
		}
	}
	if n >= linuxCommandLineSize {
		n = safe
	}
	var out []byte
	for _, c := range units {
		enc := utf8.AppendRune(nil, rune(c))
		if c == 0 || len(out)+len(enc) > n {
			break
		}
		out = append(out, enc...)
	}
	return string(out), nil
}

func utf16le(s string) []byte {
	var b []byte
	for _, r := range s {
		b = binary.LittleEndian.AppendUint16(b, uint16(r))
	}
	return b
}

// The stubs' EFI conversion, on what iPXE hands over: the NUL ends it,
// a byte over 0x7f (one code unit from iPXE) becomes UTF-8, a newline ends
// it, and a line at the limit is cut at a blank outside quotes. Checked
// against Debian's 6.1.0-57 kernel under OVMF and this iPXE: the script's
// "x\xc3\xa9y" reached /proc's Command line: as "xÃ©y".
func TestLinuxEFICmdline(t *testing.T) {
	long := func(n int) string { return string(bytes.Repeat([]byte("a"), n)) }
	for _, tc := range []struct{ in, want string }{
		{"vmlinuz a b\x00", "vmlinuz a b"},
		{"vmlinuz x\u00c3\u00a9y\x00", "vmlinuz xÃ©y"},
		{"vmlinuz a\nb\x00", "vmlinuz a"},
		{"vmlinuz a\x00b", "vmlinuz a"},
		{"k " + long(2045) + "\x00", "k " + long(2045)},
		{"k " + long(2046) + "\x00", "k"},
		{"k \"" + long(2000) + " b\" c " + long(100) + "\x00", "k \"" + long(2000) + " b\" c"},
	} {
		got, err := linuxEFICmdline(utf16le(tc.in))
		if err != nil || got != tc.want {
			t.Errorf("%.40q: %.40q %v, want %.40q", tc.in, got, err, tc.want)
		}
	}
	if _, err := linuxEFICmdline([]byte{0x00, 0xd8}); err == nil {
		t.Error("a surrogate was taken")
	}
}

// The stubs the oracle boots are their source, assembled.
func TestStubsAreTheirSource(t *testing.T) {
	host.RequireCommands(t, "as", "ld")
	dir := t.TempDir()
	for _, s := range []struct {
		src, as, ld string
		built       []byte
	}{
		{"bzstub.S", "--32", "elf_i386", bzstubImage},
		{"efistub.S", "--64", "elf_x86_64", efistubImage},
	} {
		obj, bin := filepath.Join(dir, s.src+".o"), filepath.Join(dir, s.src+".bin")
		for _, args := range [][]string{
			{"as", s.as, "-o", obj, filepath.Join("testdata", s.src)},
			{"ld", "-m", s.ld, "-Ttext", "0", "--oformat", "binary", "-o", bin, obj},
		} {
			if out, err := exec.Command(args[0], args[1:]...).CombinedOutput(); err != nil {
				t.Fatalf("%v: %v\n%s", args, err, out)
			}
		}
		got, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, s.built) {
			t.Errorf("testdata/%s assembles to other bytes than the stub the oracle boots; build it again (its header says how)", s.src)
		}
	}
}
