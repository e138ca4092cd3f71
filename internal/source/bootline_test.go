package source

import (
	"strings"
	"testing"
)

// The shapes below the grammar: a line PID 1 reads otherwise than the
// kernel and the agent (a key with - for _, words in single quotes), a
// credential in the clear however it is spelled, and the bytes and shapes
// iPXE reads otherwise. Each is refused by Unpack (validate, cmdline's
// reading of a script) and by ReadParams (the node at boot).
func TestBootLineShapesRefused(t *testing.T) {
	a, b := inlineParams(docCmdline), inlineParams(docOther)
	const token = "abcdef.0123456789abcdef"
	for _, tc := range []struct{ name, text, err string }{
		{"a credential in the clear, - for _", a + " systemd.set-credential=corium.join:" + token, "systemd.set_credential=corium.join: is matched by corium-agent.service's ImportCredential=corium.*"},
		{"a binary credential, - for both _", a + " systemd.set-credential-binary=corium.join:" + token, "systemd.set_credential_binary=corium.join: is matched"},
		{"a credential between single quotes PID 1 splits on", a + ` a='b "c' systemd.set_credential=corium.join:` + token + ` x='"'`, `holds '\'' at byte`},
		{"a credential in double quotes", a + ` "systemd.set_credential=corium.join:` + token + `"`, "systemd.set_credential=corium.join: is matched"},
		{"a sealed name that holds no ciphertext", a + " systemd.set_credential=corium-sealed.join:" + token, "systemd.set_credential=corium-sealed.join:"},
		{"a backslash", a + ` x=a\b`, `holds '\\' at byte`},
		{"iPXE: a credential in the clear", "#!ipxe\nkernel vmlinuz " + a + " systemd.set-credential=corium.join:" + token + "\nboot\n", "is matched by corium-agent.service's ImportCredential"},
		{"iPXE: a NUL that ends the line", "#!ipxe\necho hi\x00 && kernel vmlinuz " + a + " && boot\nkernel vmlinuz " + b + "\nboot\n", "line 2, byte 14 of the file (column 8): a NUL byte"},
		{"iPXE: a setting named by a number", "#!ipxe\nset 200 " + a + "\nset 0xc8 " + b + "\nkernel vmlinuz ${200}\nboot\n", "line 2: set 200: iPXE reads a setting's name that starts with a digit"},
		{"iPXE: a setting read by a number", "#!ipxe\nset x " + a + "\nkernel vmlinuz ${0.200}\nboot\n", "${0.200}: iPXE reads a setting's name"},
		{"iPXE: boot \\ at the end of the file", "#!ipxe\nkernel vmlinuz " + a + "\nboot \\\n", "line 3 ends in \\ at the end of the script"},
		{"iPXE: boot \\ at the end of a file without a line feed", "#!ipxe\nkernel vmlinuz " + a + "\nboot \\", "line 3 ends in \\ at the end of the script"},
		{"iPXE: an image named as a parameter", "#!ipxe\nkernel --name corium.config.sha256=" + sha(docOther) + " vmlinuz " + a + "\nboot\n", "iPXE on UEFI puts the name first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unpack([]byte(tc.text))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("Unpack: error %v, want %q", err, tc.err)
			}
			if err != nil && strings.Contains(err.Error(), token) {
				t.Errorf("the error quotes the credential: %v", err)
			}
			if strings.HasPrefix(tc.text, "#!ipxe") {
				return
			}
			if _, err := ReadParams(tc.text + "\n"); err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ReadParams: error %v, want %q", err, tc.err)
			}
		})
	}
}

// A line with no parameter of the agent's is still held to its credentials
// at boot: PID 1 imports a clear one, and the document's credential reads
// it.
func TestReadParamsCredentialWithoutConfig(t *testing.T) {
	if _, err := ReadParams("root=/dev/sda console=ttyS0 systemd.set-credential=corium.join:abc\n"); err == nil {
		t.Error("a clear credential for the agent on a line without corium.config= is accepted")
	}
	if p, err := ReadParams("root=/dev/sda x='a b' quiet\n"); err != nil || p.HasConfig {
		t.Errorf("a line with nothing for the agent: %+v, %v", p, err)
	}
}

// PID 1 splits on both quotes and keeps a backslash; it reads - and _ in a
// key as one.
func TestPID1Words(t *testing.T) {
	got := pid1Words(`a='b "c' systemd.set_credential=x:y z="'" q\r "u v`)
	want := []string{`a=b "c`, "systemd.set_credential=x:y", `z='`, `q\r`, "u v"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q, want %q", got, want)
	}
	if !pid1KeyIs("systemd.set-credential", ParamSetCredential) || pid1KeyIs("systemd.setcredential", ParamSetCredential) {
		t.Error("pid1KeyIs")
	}
}

// A GRUB entry is measured as GRUB hands it the kernel, BOOT_IMAGE= and the
// kernel's path first: an entry whose words fit the limit alone but not
// with them is over it, since GRUB drops the parameters past the limit
// without a word.
func TestGRUBBudgetCountsBootImage(t *testing.T) {
	words := grubParams(docCmdline) + " x=" // GRUB takes the two quotes away
	words += strings.Repeat("y", MaxCmdline-len(words)+2)
	cfg := "menuentry 'n' {\n  linux /vmlinuz " + words + "\n}\n"
	d, err := Unpack([]byte(cfg))
	if err != nil {
		t.Fatal(err)
	}
	if d.Cmdline.Whole != MaxCmdline+len("BOOT_IMAGE=/vmlinuz ") {
		t.Fatalf("words of %d bytes measured %d", len(words)-2, d.Cmdline.Whole)
	}
	if f := CmdlineFit(*d.Cmdline); f == nil || !strings.Contains(f.Message, "kernel keeps 2047") {
		t.Errorf("an entry over the limit with BOOT_IMAGE=: %v", f)
	}
}

// A file GRUB or iPXE runs as a script is never read as YAML: named for
// the loader, it is its script alone; and a text that is a YAML mapping
// and a script naming the document at once is refused, whatever its name.
func TestScriptNeverReadAsYAML(t *testing.T) {
	a := grubParams(docCmdline)
	// The last line goes on a plain scalar in YAML; GRUB runs it.
	both := "role: worker\nnode:\n  name: n1\n  labels:\n    a: b\n    c: d\n      linux /vmlinuz " + a + "\n"
	if _, err := Unpack([]byte(both)); err == nil || !strings.Contains(err.Error(), "reads both as a YAML document and as a boot loader's script") {
		t.Errorf("YAML and a GRUB script at once: %v", err)
	}
	yamlOnly := "role: worker\ncluster:\n  name: a\n"
	for name, want := range map[string]string{
		"node.cfg":  "a .cfg file is read as a GRUB entry, and this one boots no kernel line naming corium.config=",
		"node.ipxe": "a .ipxe file is read as an iPXE script",
	} {
		if _, err := UnpackFile(name, []byte(yamlOnly)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s holding YAML: %v", name, err)
		}
	}
	if d, err := UnpackFile("node.yaml", []byte(yamlOnly)); err != nil || string(d.Data) != yamlOnly {
		t.Errorf("node.yaml: %v", err)
	}
	if d, err := UnpackFile("node.cfg", []byte(entry("n", a))); err != nil || string(d.Data) != docCmdline {
		t.Errorf("node.cfg holding an entry: %v", err)
	}
}

// GRUB joins the kernel's path after BOOT_IMAGE= as it joins every word:
// one holding a space in double quotes.
func TestGRUBBootImageJoined(t *testing.T) {
	line, _, _, err := grubBooted("menuentry 'n' {\n  linux '/boot/vmlinuz 6.1' " + grubParams(docCmdline) + "\n}\n")
	if err != nil || !strings.HasPrefix(line, `BOOT_IMAGE="/boot/vmlinuz 6.1" corium.config.sha256=`) {
		t.Errorf("%q %v", line, err)
	}
}
