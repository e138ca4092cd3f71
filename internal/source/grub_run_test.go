package source

import (
	"encoding/base64"
	"strings"
	"testing"
)

// grubParams are the parameters for doc as cmdline --grub prints them.
func grubParams(doc string) string {
	return "corium.config.sha256=" + sha(doc) + " 'corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(doc)) + "'"
}

// entry is a menu entry whose linux line ends in params.
func entry(title, params string) string {
	return "menuentry '" + title + "' {\n  linux /vmlinuz root=/dev/sda1 " + params + "\n  initrd /initrd.img\n}\n"
}

// Each way a grub.cfg can boot another line than its linux line spells is
// read as GRUB runs it: variables from what the file set (after the whole
// file ran, for an entry), and every entry, whichever the menu chooses.
func TestGRUBReadsTheLineItBoots(t *testing.T) {
	a, b := grubParams(docCmdline), grubParams(docOther)
	value := "'corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(docOther)) + "'"
	pinB := "corium.config.sha256=" + sha(docOther)
	for _, tc := range []struct{ name, cfg, want, via string }{
		{"a variable on the linux line", "set c=" + value + "\n" + entry("n", pinB+" $c"), docOther, "line 3"},
		{"braces and double quotes", "set c=" + value + "\n" + entry("n", pinB+` "${c}"`), docOther, "line 3"},
		{"set after the entry: the entry runs after the file", "set c=x\n" + entry("n", pinB+" $c") + "set c=" + value + "\n", docOther, "line 3"},
		{"name=value and a set inside the entry", "c=x\nmenuentry 'n' {\n  set c=" + value + "\n  linux /vmlinuz " + pinB + " $c\n}\n", docOther, "line 4"},
		{"the last linux line of an entry", "menuentry 'n' {\n  linux /vmlinuz " + a + "\n  linux /vmlinuz " + b + "\n}\n", docOther, "line 3"},
		{"default chooses between entries of one document", "set default=1\n" + entry("a", a) + entry("b", a), docCmdline, "line 3"},
		{"an entry without the parameters beside one", entry("rescue", "single") + entry("n", a), docCmdline, "line 6"},
		{"the lines of one entry, to paste", "insmod gzio\nlinux /vmlinuz " + a + "\ninitrd /initrd.img\n", docCmdline, "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Unpack([]byte(tc.cfg))
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Data) != tc.want || !strings.HasPrefix(d.Via, tc.via+" (GRUB linux)") {
				t.Errorf("read %q via %q, want %q via %s", d.Data, d.Via, tc.want, tc.via)
			}
		})
	}
}

// What the reader cannot follow is refused by line and command.
func TestGRUBRefusesWhatItCannotFollow(t *testing.T) {
	a, b := grubParams(docCmdline), grubParams(docOther)
	for _, tc := range []struct{ name, cfg, err string }{
		{"default chooses between two documents", "set default=1\n" + entry("a", a) + entry("b", b), "lines 3 and 7: two GRUB entries give corium.config= different values"},
		{"a variable GRUB sets", entry("n", a+" root=$root"), "line 2: linux: $root is a variable the file does not set"},
		{"a variable the menu sets anew", "set chosen=x\n" + entry("n", a+" c=$chosen"), "$chosen is a variable the file does not set (or the menu sets anew)"},
		{"an unquoted value with a blank", "set c='" + "corium.config.wait=1m quiet'\n" + entry("n", a+" $c"), "line 3: linux: $c is not quoted and its value is empty or holds a blank"},
		{"if", "if true; then\n" + entry("n", a) + "fi\n", "line 1: the command if is not one the reader follows"},
		{"a test on the first line", "if [ -s $prefix/grubenv ]; then load_env; fi\n" + entry("n", a), "line 1: '[' is a wildcard"},
		{"source", "source /boot/other.cfg\n" + entry("n", a), "line 1: the command source"},
		{"load_env", "load_env\n" + entry("n", a), "line 1: the command load_env"},
		{"a command from a variable", "set l=linux\nmenuentry 'n' {\n  $l /vmlinuz " + a + "\n}\n", "line 3: the command built from a variable"},
		{"submenu", "submenu 'more' {\n" + entry("n", a) + "}\n", "line 1: the command submenu"},
		{"a pipe", entry("n", a+" | x"), `line 2: '|' is one of GRUB's metacharacters`},
		{"a wildcard", entry("n", a+" x=*"), `line 2: '*' is a wildcard`},
		{"a continuation", "menuentry 'n' {\n  linux /vmlinuz " + a + " \\\n  quiet\n}\n", `line 2: a \ at the end of the line goes on`},
		{"a quote over two lines", "menuentry 'n' {\n  linux /vmlinuz " + a + " 'x\ny'\n}\n", "line 2: a single quote is not closed"},
		{"linux outside an entry", "linux /vmlinuz " + a + "\n" + entry("n", a), "line 1: the command linux is not one the reader follows here"},
		{"an entry not closed", "menuentry 'n' {\n  linux /vmlinuz " + a + "\n", "the last menu entry is not closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Unpack([]byte(tc.cfg))
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want %q", err, tc.err)
			}
			if strings.Contains(err.Error(), "base64,") {
				t.Errorf("the error quotes the document: %v", err)
			}
		})
	}
}

// A grub.cfg that names no corium.config= is handed on, whatever it runs.
func TestGRUBWithoutTheParameterIsHandedOn(t *testing.T) {
	cfg := "search --set=root --label boot\nmenuentry 'x' {\n  linux /vmlinuz root=$root quiet\n}\n"
	if d, err := Unpack([]byte(cfg)); err != nil || string(d.Data) != cfg || d.Via != "" {
		t.Errorf("%+v %v", d, err)
	}
}

// GRUB hands the kernel each word escaped and a word holding a blank in
// double quotes (grub_create_loader_cmdline).
func TestGRUBKernelLine(t *testing.T) {
	if got, want := grubKernelLine([]string{"a b", `c"d`, `e\f`, "g'h", "i\tj"}), `"a b" c\"d e\\f g\'h i	j`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
