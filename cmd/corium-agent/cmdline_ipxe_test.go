package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/source/sourcetest"
)

// The script --ipxe prints carries the pin first and the document on its
// kernel line, and validate reads that very document back from it.
func TestCmdlineIPXEReadsBack(t *testing.T) {
	file := writeConfig(t, "pxe.yaml", pxeDoc)
	code, out, errOut := runCLI(t, "cmdline", "--ipxe", "--kernel", "tftp://10.0.2.2/vmlinuz", "--append", "root=/dev/vda console=ttyS0", file)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 5 || lines[0] != "#!ipxe" || !strings.HasPrefix(lines[1], "kernel tftp://10.0.2.2/vmlinuz corium.config.sha256=") ||
		!strings.HasSuffix(lines[1], " root=/dev/vda console=ttyS0") || lines[2] != "initrd initrd.img" || lines[3] != "boot" {
		t.Fatalf("script %q", out)
	}
	args := strings.TrimPrefix(lines[1], "kernel tftp://10.0.2.2/vmlinuz ")
	res, err := sourcetest.FindOnCmdline(t, args)
	if err != nil || string(res.Data) != pxeDoc {
		t.Fatalf("the node's reader: %v, %q", err, res.Data)
	}
	script := filepath.Join(t.TempDir(), "boot.ipxe")
	if err := os.WriteFile(script, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	code, vout, verr := runCLI(t, "validate", "--format", "json", script)
	if code != exitOK || !strings.Contains(vout, `"via": "line 2 (iPXE) corium.config`) {
		t.Errorf("validate: exit %d, stdout %s, stderr %q", code, vout, verr)
	}
}

// Every iPXE special in what goes on the line is refused, nothing printed,
// and the refusal names the flag and the rule.
func TestCmdlineIPXERefusesSpecials(t *testing.T) {
	file := writeConfig(t, "pxe.yaml", pxeDoc)
	for flag, cases := range map[string]map[string]string{
		"--append": {
			"console=${console}":   "holds ${",
			"quiet #rest":          "starts with #",
			"quiet || shell":       "is ||",
			"quiet && shell":       "is &&",
			"quiet ; shell":        "is ;",
			`quiet \`:              `ends in \`,
			"root=/dev/vda  quiet": "run of blanks",
			"root=/dev/vda\tquiet": "run of blanks",
			"quiet systemd.set-credential=corium.join:abcdef.0123456789abcdef": "is matched by corium-agent.service's ImportCredential",
			"quiet x='a b'": "holds '\\''",
			"quiet x=a\\b":  `holds '\\'`,
			"quiet \x00":    "a NUL byte",
		},
		"--kernel": {"${base}/vmlinuz": "holds ${", "a b": "one URI", "https://boot:hunter2@192.0.2.1/vmlinuz": "holds a user and password"},
		"--initrd": {"#initrd": "starts with #", "http://boot:hunter2@192.0.2.1/initrd.img": "holds a user and password"},
	} {
		for value, want := range cases {
			code, out, errOut := runCLI(t, "cmdline", "--ipxe", flag, value, file)
			if code != exitFailed || out != "" || !strings.Contains(errOut, "refusing: "+flag+": ") || !strings.Contains(errOut, want) {
				t.Errorf("%s %q: exit %d, stdout %q, stderr %q", flag, value, code, out, errOut)
			}
			if strings.Contains(errOut, "hunter2") || strings.Contains(errOut, "0123456789abcdef") {
				t.Errorf("%s %q: the refusal quotes the secret: %q", flag, value, errOut)
			}
		}
	}
	if code, _, errOut := runCLI(t, "cmdline", "--append", "quiet", file); code != exitUsage || !strings.Contains(errOut, "go with --ipxe") {
		t.Errorf("--append without --ipxe: exit %d, %q", code, errOut)
	}
}

// The kernel's 2,047 bytes are measured over the whole line iPXE hands it:
// on UEFI the image's name, then the agent's parameters with --append's. A
// line of exactly 2,047 bytes is printed; one byte more is refused.
func TestCmdlineIPXEBudget(t *testing.T) {
	file := writeConfig(t, "pxe.yaml", pxeDoc)
	params := strings.Join(source.InlineParams([]byte(pxeDoc)), " ")
	rest := func(whole int) string {
		return "console=" + strings.Repeat("x", whole-len("vmlinuz ")-len(params)-1-len("console="))
	}
	code, out, errOut := runCLI(t, "cmdline", "--ipxe", "--append", rest(source.MaxCmdline), file)
	if code != exitOK || !strings.Contains(out, params+" "+rest(source.MaxCmdline)+"\n") || strings.Contains(errOut, "error") {
		t.Errorf("%d bytes: exit %d, stderr %q", source.MaxCmdline, code, errOut)
	}
	if source.MaxCmdline != 2047 {
		t.Errorf("MaxCmdline = %d, want x86's 2047", source.MaxCmdline)
	}
	code, out, errOut = runCLI(t, "cmdline", "--ipxe", "--append", rest(source.MaxCmdline+1), file)
	if code != exitFailed || out != "" || !strings.Contains(errOut, "the kernel command line takes 2048 bytes, and the kernel keeps 2047") {
		t.Errorf("%d bytes: exit %d, stdout %q, stderr %q", source.MaxCmdline+1, code, out, errOut)
	}
}
