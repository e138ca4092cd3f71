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
	a := grubParams(docCmdline)
	value := "'corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(docOther)) + "'"
	pinB := "corium.config.sha256=" + sha(docOther)
	for _, tc := range []struct{ name, cfg, want, via string }{
		{"a variable on the linux line", "set c=" + value + "\n" + entry("n", pinB+" $c"), docOther, "line 3"},
		{"braces and double quotes", "set c=" + value + "\n" + entry("n", pinB+` "${c}"`), docOther, "line 3"},
		{"set after the entry: the entry runs after the file", "set c=x\n" + entry("n", pinB+" $c") + "set c=" + value + "\n", docOther, "line 3"},
		{"name=value and a set inside the entry", "c=x\nmenuentry 'n' {\n  set c=" + value + "\n  linux /vmlinuz " + pinB + " $c\n}\n", docOther, "line 4"},
		{"default chooses between entries of one document", "set default=1\n" + entry("a", a) + entry("b", a), docCmdline, "line 7"},
		{"a rescue entry beside the default", "set default=1\n" + entry("rescue", "single") + entry("n", a), docCmdline, "line 7"},
		{"the first entry when no default is set", entry("n", a) + entry("rescue", "single"), docCmdline, "line 2"},
		{"default by title", "set default=n\n" + entry("rescue", "single") + entry("n", a), docCmdline, "line 7"},
		{"default by id", "set default=node\nmenuentry 'rescue' {\n  linux /vmlinuz single\n}\nmenuentry 'n' --id node {\n  linux /vmlinuz " + a + "\n}\n", docCmdline, "line 6"},
		{"a fallback that carries the document too", "set default=0\nset fallback=1\n" + entry("a", a) + entry("b", a), docCmdline, "line 4"},
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
		{"submenu", "submenu 'more' {\n" + entry("n", a) + "}\n", "line 1: a { or } outside quotes"},
		{"two linux lines in an entry", "menuentry 'n' {\n  linux /vmlinuz " + a + "\n  linux /vmlinuz " + b + "\n}\n", "line 3: a second linux in the entry (the first is on line 2)"},
		{"a } that ends a linux line, and an echo { that takes the next as a block", "menuentry 'n' {\n  linux /vmlinuz " + a + " }\necho {\n  linux /vmlinuz " + b + "\n}\n", "line 2: a { or } outside quotes"},
		{"an echo that opens a block", "menuentry 'n' {\n  echo {\n  linux /vmlinuz " + a + "\n}\n}\n", "line 2: a { or } outside quotes"},
		{"a NUL byte that ends GRUB's line", "menuentry 'n' {\n  echo hi\x00; linux /vmlinuz " + b + "\n  linux /vmlinuz " + a + "\n}\n", "line 2, byte 25 of the file (column 10): a NUL byte"},
		{"a carriage return GRUB drops", "menuentry 'n' {\n  linux /vmlinuz " + a + " \r}\n  echo {\n}\n", "a carriage return not before a line feed"},
		{"a byte outside ASCII", "menuentry 'n\u00e9' {\n  linux /vmlinuz " + a + "\n}\n", "line 1, byte 12 of the file (column 13): the byte 0xc3"},
		{"the first entry, without the document, when no default is set", entry("rescue", "single") + entry("n", a), `line 2: the entry GRUB boots unattended (entry 0, "rescue") does not name corium.config=`},
		{"default= names the entry without the document", "set default=1\n" + entry("n", a) + entry("rescue", "single"), `line 7: the entry GRUB boots unattended (entry 1, "rescue")`},
		{"default= by title of the entry without the document", "set default=rescue\n" + entry("n", a) + entry("rescue", "single"), `(entry 1, "rescue") does not name corium.config=`},
		{"a fallback without the document", "set fallback=1\n" + entry("n", a) + entry("rescue", "single"), `(entry 1, "rescue") does not name corium.config=`},
		{"default= past the last entry", "set default=5\n" + entry("n", a), "default=5: names entry 5, and the file has 1"},
		{"default= naming no entry", "set default=other\n" + entry("n", a), "default=other: names no entry of the file"},
		{"default= a submenu's path", "set default='a>b'\n" + entry("n", a), "default=a>b: the reader follows an entry's number, title or --id"},
		{"default= a number GRUB reads in part", "set default=0x1\n" + entry("n", a) + entry("m", a), "default=0x1: the reader follows"},
		{"a ; with no command before it", "menuentry 'n' {\n  ; echo Loading\n  linux /vmlinuz " + a + "\n}\n", "line 2: a ; with no command before it"},
		{"two ;", "menuentry 'n' {\n  echo Loading;; linux /vmlinuz " + a + "\n}\n", "line 2: a ; with no command before it"},
		{"an entry with no command", "set default=1\nmenuentry 'memtest' {\n}\n" + entry("n", a), "line 3: the entry opened on line 2 runs no command"},
		{"an entry that leaves variables to its fallback", "set fallback=1\nmenuentry 'n' {\n  set x=1\n  linux /vmlinuz " + a + "\n}\n" + entry("m", a), `line 2: the entry GRUB falls back from (entry 0, "n") sets variables`},
		{"a default entry that loads no kernel", "menuentry 'x' {\n  echo hi\n}\n" + entry("n", a), "(entry 0, \"x\") loads no kernel"},
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
