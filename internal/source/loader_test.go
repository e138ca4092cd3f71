package source

import (
	"strings"
	"testing"
)

// Every boot loader in the table is whole, and Unpack reads back from the
// script it prints the document the script carries, on the command line
// the script hands the kernel: printer and reader agree for each loader,
// a new one included.
func TestLoadersReadWhatTheyPrint(t *testing.T) {
	if len(Loaders()) < 2 {
		t.Fatalf("%d loaders; GRUB and iPXE at least", len(Loaders()))
	}
	params := InlineParams([]byte(docCmdline))
	seen := map[string]bool{}
	for _, l := range Loaders() {
		if l.Name == "" || l.Noun == "" || len(l.Suffixes) == 0 || l.Usage == "" || l.via == "" || l.entry == nil || l.script == nil {
			t.Errorf("%q: a field is missing: %+v", l.Name, l)
			continue
		}
		for _, s := range l.Suffixes {
			if !strings.HasPrefix(s, ".") || seen[s] {
				t.Errorf("%s: suffix %q is no suffix or another loader's", l.Name, s)
			}
			seen[s] = true
		}
		script, line, err := l.Script(params, Boot{Kernel: "vmlinuz", Initrd: "initrd.img", Append: "root=/dev/vda"})
		if err != nil {
			t.Errorf("%s: %v", l.Name, err)
			continue
		}
		d, err := Unpack([]byte(script))
		if err != nil || d == nil || string(d.Data) != docCmdline || !d.OnCmdline || d.Cmdline == nil {
			t.Errorf("%s: Unpack of the script it prints: %v, %+v\n%s", l.Name, err, d, script)
			continue
		}
		if !strings.Contains(line, strings.Join(params, " ")) || d.Cmdline.Whole != MeasureCmdline(line).Whole {
			t.Errorf("%s: the line measured, %q, is not the one read (%d bytes)", l.Name, line, d.Cmdline.Whole)
		}
		if d.Via != ParamConfig && !strings.Contains(d.Via, "("+l.via+")") {
			t.Errorf("%s: Via %q does not name the loader", l.Name, d.Via)
		}
	}
}
