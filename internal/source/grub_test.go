package source

import (
	"encoding/base64"
	"strings"
	"testing"
)

// The parameters as cmdline --grub prints them, and a grub.cfg entry they
// were pasted into, deliver the document GRUB hands the kernel.
func TestUnpackGRUB(t *testing.T) {
	inline := "data:;base64," + base64.StdEncoding.EncodeToString([]byte(docCmdline))
	pinned := "corium.config.sha256=" + sha(docCmdline) + " 'corium.config=" + inline + "'"
	entry := "set timeout=3\nmenuentry 'corium node' {\n  linux /vmlinuz root=/dev/sda1 console=ttyS0 " + pinned + "\n  initrd /initrd.img\n}\n"
	for _, tc := range []struct {
		name, text, via, err string
	}{
		{"as cmdline --grub prints it", pinned + "\n", "corium.config", ""},
		{"unpinned", "'corium.config=" + inline + "'", "corium.config", ""},
		{"a linux line", "linux /vmlinuz quiet " + pinned, "corium.config", ""},
		{"a grub.cfg entry", entry, "line 3 (GRUB linux) corium.config", ""},
		{"double quotes and escapes", "menuentry x {\n" + `linux /vmlinuz "corium.config=` + inline + `" corium.config.sha256=` + sha(docCmdline) + ` x=a\;b` + "\n}\n", "line 2 (GRUB linux) corium.config", ""},
		{"a backslash on a kernel line", `linux /vmlinuz "corium.config=` + inline + `" corium.config.sha256=` + sha(docCmdline) + ` x=a\;b`, "", `holds '\\' at byte`},
		{"pin differs", "corium.config.sha256=" + sha("another") + " 'corium.config=" + inline + "'", "", "digest mismatch"},
		{"two entries, one document", entry + strings.Replace(entry, "corium node", "recovery", 1), "line 3 (GRUB linux) corium.config", ""},
		{"two entries, two documents", entry + strings.Replace(strings.Replace(entry, "corium node", "recovery", 1), sha(docCmdline), sha("x"), 1), "", "lines 3 and 8: two GRUB entries give corium.config.sha256= different values"},
		{"a URL", "linux /vmlinuz 'corium.config=https://example.net/w1.yaml'", "", "does not carry the document inline"},
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
			// A line the kernel reads as it stands (double quotes, which the
			// kernel takes too) needs no GRUB quotes undone.
			quoted := strings.Contains(tc.text, "'") || strings.HasPrefix(tc.text, "menuentry")
			if string(d.Data) != docCmdline || !d.OnCmdline || d.Via != tc.via || strings.Contains(d.How, "GRUB") != quoted {
				t.Errorf("delivery %+v", d)
			}
			if (d.Pin != "") != strings.Contains(tc.text, "sha256") {
				t.Errorf("pin %q", d.Pin)
			}
		})
	}
}

// A grub.cfg that names no corium.config= is handed on as it is (the schema
// says it is no document), and so is YAML that mentions a linux line.
func TestUnpackGRUBWithoutTheParameter(t *testing.T) {
	for _, text := range []string{
		"menuentry 'x' {\n  linux /vmlinuz quiet\n}\n",
		"role: worker\nnode:\n  name: w1\n# linux /vmlinuz corium.config=data:,role%3A%20single\n",
	} {
		d, err := Unpack([]byte(text))
		if err != nil || string(d.Data) != text || d.Via != "" {
			t.Errorf("%q: %+v %v", text, d, err)
		}
	}
}

// GRUB's lexer as the reader follows it: quotes and escapes undone, ;
// ending a command, # starting a comment only at a word's start.
func TestGRUBLex(t *testing.T) {
	for in, want := range map[string]string{
		`linux /k 'a;b' c`:          "linux|/k|a;b|c",
		`linux /k a\ b "c\$d\x" e`:  `linux|/k|a b|c$d\x|e`,
		`linux /k a; echo b`:        "linux|/k|a",
		`linux /k a #comment`:       "linux|/k|a",
		`linux /k a#b`:              "linux|/k|a#b",
		`linux /k 'it'\''s' "q\"q"`: `linux|/k|it's|q"q`,
		`linux /k '' x`:             "linux|/k||x",
	} {
		cmds, err := grubLex(in)
		if err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		words, err := grubEnv{}.words(cmds[0])
		if got := strings.Join(words, "|"); err != nil || got != want {
			t.Errorf("grubLex(%q) = %q %v, want %q", in, got, err, want)
		}
	}
}
