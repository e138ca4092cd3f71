package source

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Every iPXE special is refused, each named; a line without one passes.
func TestCheckIPXELine(t *testing.T) {
	for line, want := range map[string]string{
		"root=/dev/vda console=ttyS0 corium.config=data:;base64,QUJD": "",
		"console=${console}":               "holds ${",
		"quiet ${":                         "holds ${",
		"root=/dev/vda #comment":           "word 2 starts with #",
		"#x":                               "word 1 starts with #",
		"quiet || reboot":                  "word 2 is ||",
		"quiet && reboot":                  "word 2 is &&",
		"quiet ; reboot":                   "word 2 is ;",
		`quiet \`:                          `ends in \`,
		"root=/dev/vda  quiet":             "run of blanks",
		"root=/dev/vda\tquiet":             "run of blanks",
		" quiet":                           "run of blanks",
		"quiet ":                           "run of blanks",
		"quiet\nreboot":                    "line break",
		"a=b#c x=a;b y=a||b z=a&&b w=a\\b": "", // inside a word, iPXE keeps them
	} {
		err := CheckIPXELine(line)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: refused: %v", line, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want %q", line, err, want)
		}
	}
}

// An iPXE script delivers the document on its kernel line; one whose line
// iPXE would change, or with two such lines, is refused.
func TestUnpackIPXE(t *testing.T) {
	inline := "corium.config.sha256=" + sha(docCmdline) + " corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(docCmdline))
	for _, tc := range []struct{ name, text, via, err string }{
		{"as cmdline --ipxe prints it", "#!ipxe\nkernel vmlinuz " + inline + " root=/dev/vda\ninitrd initrd.img\nboot\n", "line 2 (iPXE) corium.config", ""},
		{"a named image and imgargs", "#!ipxe\r\nkernel --name k tftp://h/vmlinuz\r\nimgargs k " + inline + "\r\nboot k\r\n", "line 3 (iPXE) corium.config", ""},
		{"a comment after it", "#!ipxe\n# the node\nkernel vmlinuz " + inline + " # pinned\nboot\n", "line 3 (iPXE) corium.config", ""},
		{"expanded", "#!ipxe\nkernel vmlinuz " + inline + " console=${console}\nboot\n", "", "line 2: kernel: ${console} is a setting the script does not set"},
		{"continued", "#!ipxe\nkernel vmlinuz " + inline + ` \` + "\n  quiet\nboot\n", "line 2 (iPXE) corium.config", ""},
		{"two, the later boots", "#!ipxe\nkernel a " + inline + "\nkernel b " + strings.Replace(inline, "corium.config.sha256="+sha(docCmdline), "corium.config.sha256="+sha("x"), 1) + "\nboot\n", "", "digest mismatch"},
		{"pin differs", "#!ipxe\nkernel vmlinuz corium.config.sha256=" + sha("x") + " corium.config=data:;base64,QUJD\nboot\n", "", "digest mismatch"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Unpack([]byte(tc.text))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Data) != docCmdline || !d.OnCmdline || d.Via != tc.via || d.Pin == "" {
				t.Errorf("delivery %+v", d)
			}
		})
	}
}
