package source

import (
	"encoding/base64"
	"strings"
	"testing"
)

// inlineParams are the parameters cmdline prints for doc: its pin, then
// the document inline.
func inlineParams(doc string) string {
	return "corium.config.sha256=" + sha(doc) + " corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(doc))
}

// Another document than docCmdline, to tell which one a script boots.
const docOther = "role: worker\ncluster:\n  name: the-other\n"

// Each way a script can boot another line than the one a first-command
// reading sees is read as iPXE runs it: the document the kernel gets is
// the one Unpack hands on.
func TestIPXEReadsTheLineItBoots(t *testing.T) {
	a, b := inlineParams(docCmdline), inlineParams(docOther)
	for _, tc := range []struct{ name, script, want, via string }{
		{"a second command on the line", "#!ipxe\nkernel vmlinuz " + a + "\necho ok && kernel vmlinuz " + b + "\nboot\n", docOther, "line 3"},
		{"set, then imgargs with the setting", "#!ipxe\nkernel vmlinuz " + a + "\nset x " + b + "\nimgargs vmlinuz ${x}\nboot\n", docOther, "line 4"},
		{"a setting inside a word, expanded again", "#!ipxe\nset p corium.config\nset d =data:;base64,\nset q ${p}${d}\nkernel vmlinuz corium.config.sha256=" + sha(docOther) + " ${q}" + base64.StdEncoding.EncodeToString([]byte(docOther)) + "\nboot\n", docOther, "line 5"},
		{"a trailing backslash folds the next line into echo", "#!ipxe\nkernel vmlinuz " + a + "\necho \\\nkernel vmlinuz " + b + "\nboot\n", docCmdline, "line 2"},
		{"a trailing backslash folds the kernel line into the one before", "#!ipxe\necho x \\\nkernel vmlinuz " + b + "\nkernel vmlinuz " + a + "\nboot\n", docCmdline, "line 4"},
		{"a continuation joined without a blank", "#!ipxe\nkernel vmlinuz " + strings.Replace(a, "corium.config=", "corium.con\\\nfig=", 1) + "\nboot\n", docCmdline, "line 2"},
		{"a later kernel line selects another image", "#!ipxe\nkernel vmlinuz " + b + "\nkernel --name k2 vmlinuz2 " + a + "\nboot\n", docCmdline, "line 3"},
		{"boot runs the selected image, not the last fetched", "#!ipxe\nkernel vmlinuz " + a + "\ninitrd initrd.img " + b + "\nboot\n", docCmdline, "line 2"},
		{"boot with arguments replaces them", "#!ipxe\nkernel vmlinuz " + b + "\nboot vmlinuz " + a + "\n", docCmdline, "line 3"},
		{"chain fetches and boots", "#!ipxe\nchain http://192.0.2.1/boot/vmlinuz " + a + "\n", docCmdline, "line 2"},
		{"a label before the command", "#!gpxe\n:start kernel vmlinuz " + a + "\nboot\n", docCmdline, "line 2"},
		{"nothing after boot runs", "#!ipxe\nkernel vmlinuz " + a + "\nboot\nkernel vmlinuz " + b + "\nboot\n", docCmdline, "line 2"},
		{"a comment word ends the line", "#!ipxe\nkernel vmlinuz " + a + " #" + b + "\nboot\n", docCmdline, "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Unpack([]byte(tc.script))
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Data) != tc.want || !strings.HasPrefix(d.Via, tc.via+" (iPXE)") {
				t.Errorf("read %q via %q, want %q via %s", d.Data, d.Via, tc.want, tc.via)
			}
		})
	}
}

// What the reader cannot follow is refused by line and command: a flow
// decided at boot, a setting known only at boot, a command off the list, a
// script that boots nothing or another line than the one naming the
// document.
func TestIPXERefusesWhatItCannotFollow(t *testing.T) {
	a := inlineParams(docCmdline)
	for _, tc := range []struct{ name, script, err string }{
		{"||", "#!ipxe\nkernel vmlinuz " + a + " || kernel other quiet\nboot\n", "line 2: || runs the next command"},
		{";", "#!ipxe\nkernel vmlinuz " + a + " ; boot\n", "line 2: ; runs the next command"},
		{"goto", "#!ipxe\ngoto skip\nkernel vmlinuz " + a + "\n:skip\nboot\n", "line 2: the command goto is not one the reader follows"},
		{"dhcp", "#!ipxe\ndhcp\nkernel vmlinuz " + a + "\nboot\n", "line 2: the command dhcp"},
		{"a setting of the network", "#!ipxe\nkernel vmlinuz " + a + " ip=${net0/ip}\nboot\n", "line 2: kernel: ${net0/ip} is a setting the script does not set"},
		{"a setting in the kernel's URI", "#!ipxe\nkernel http://${next-server}/vmlinuz " + a + "\nboot\n", "${next-server}"},
		{"setting one of iPXE's", "#!ipxe\nset filename x\nkernel vmlinuz " + a + "\nboot\n", "line 2: set filename: iPXE defines filename itself"},
		{"a scoped setting", "#!ipxe\nset net0/x y\nkernel vmlinuz " + a + "\nboot\n", "line 2: set net0/x"},
		{"a command from a setting", "#!ipxe\nset k kernel\n${k} vmlinuz " + a + "\nboot\n", "line 3: the command's name is a setting"},
		{"no boot", "#!ipxe\nkernel vmlinuz " + a + "\n", "the script boots nothing"},
		{"boot before kernel", "#!ipxe\nboot\nkernel vmlinuz " + a + "\n", "line 2: boot runs the selected image, and no kernel line selected one"},
		{"imgargs of an image not fetched", "#!ipxe\nkernel vmlinuz quiet\nimgargs http://192.0.2.1/vmlinuz " + a + "\nboot\n", "line 3: imgargs names http://192.0.2.1/vmlinuz, an image the script did not fetch"},
		{"a later kernel line drops the document", "#!ipxe\nkernel vmlinuz " + a + "\nkernel vmlinuz2 quiet\nboot\n", "the kernel line iPXE boots (line 3) does not name corium.config="},
		{"imgargs drops it", "#!ipxe\nkernel vmlinuz " + a + "\nimgargs vmlinuz\nboot\n", "does not name corium.config="},
		{"two images of one name", "#!ipxe\nkernel vmlinuz " + a + "\ninitrd http://192.0.2.1/x/vmlinuz\nboot\n", `line 3: initrd: the image is named "vmlinuz"`},
		{"an option the reader does not follow", "#!ipxe\nkernel --name=k vmlinuz " + a + "\nboot\n", "line 2: kernel: the option --name=k"},
		{"a continuation at the end", "#!ipxe\nkernel vmlinuz " + a + "\nboot \\", "line 3 ends in \\ at the end of the script"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unpack([]byte(tc.script))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if strings.Contains(err.Error(), "base64,") {
				t.Errorf("the error quotes the document: %v", err)
			}
		})
	}
}

// A script that names no corium.config= is no delivery of the document:
// handed on for the schema to say so, whatever it runs.
func TestIPXEWithoutTheParameterIsHandedOn(t *testing.T) {
	for _, script := range []string{
		"#!ipxe\ndhcp\nchain http://${next-server}/menu.ipxe\n",
		"#!ipxe\nkernel vmlinuz quiet\nboot\n",
	} {
		d, err := Unpack([]byte(script))
		if err != nil || string(d.Data) != script || d.Via != "" {
			t.Errorf("%q: %+v %v", script, d, err)
		}
	}
}
