package source

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Each shape that decodes its document names the file's line carrying it
// and where in the file it is; a document that is the file's text, or a
// literal block of it, counts in the file.
func TestDecodedNamesTheCarryingLine(t *testing.T) {
	params := InlineParams([]byte(docCmdline))
	ipxe, _, err := ipxeLoader.Script(params, Boot{Kernel: "vmlinuz", Initrd: "initrd.img"})
	if err != nil {
		t.Fatal(err)
	}
	grub, _, err := grubLoader.Script(params, Boot{})
	if err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString([]byte(docCmdline))
	for name, c := range map[string]struct {
		file  string
		place string
		line  int
	}{
		"a command line after blank lines": {"\n\n" + strings.Join(params, " ") + "\n", ParamConfig, 3},
		"an iPXE script":                   {ipxe, ParamConfig, 2},
		"a GRUB entry":                     {"menuentry 'n' {\n  linux /vmlinuz " + grub + "\n}\n", ParamConfig, 2},
		"GRUB's parameters alone":          {grub + "\n", ParamConfig, 1},
		"an encoded write_files content": {"#cloud-config\nwrite_files:\n- path: /etc/corium/config.yaml\n  encoding: b64\n  content: " + b64 + "\n",
			"write_files[0].content", 5},
	} {
		d, err := Unpack([]byte(c.file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if place, line, ok := d.Decoded(); !ok || place != c.place || line != c.line {
			t.Errorf("%s: Decoded() = %q, %d, %t; want %q, %d", name, place, line, ok, c.place, c.line)
		}
	}
	for name, file := range map[string]string{
		"the document itself": docFile,
		"a literal block":     "#cloud-config\nwrite_files:\n- path: /etc/corium/config.yaml\n  content: |\n    role: worker\n",
	} {
		d, err := Unpack([]byte(file))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, _, ok := d.Decoded(); ok {
			t.Errorf("%s: its positions are said to count in a decoded document", name)
		}
		if _, ok := d.Excerpt(1, 1, nil); ok {
			t.Errorf("%s: an excerpt of a line an editor shows", name)
		}
	}
}

// A window is the line when it fits, else ExcerptWidth characters around
// the column with … where it cuts, the column moved with it; a tab keeps
// the marker's place.
func TestWindow(t *testing.T) {
	long := strings.Repeat("a", 100) + "X" + strings.Repeat("b", 100)
	for name, c := range map[string]struct {
		text string
		at   int
		want string
	}{
		"fits":          {"key: {a: 1}", 6, "key: {a: 1}"},
		"in the middle": {long, 101, "…" + strings.Repeat("a", 30) + "X" + strings.Repeat("b", 29) + "…"},
		"at the start":  {long, 1, strings.Repeat("a", 60) + "…"},
		"at the end":    {long, 201, "…" + strings.Repeat("b", 60)},
		"tab":           {"a:\tX", 4, "a: X"},
	} {
		e := window(c.text, c.at)
		if e.Text != c.want {
			t.Errorf("%s: %q, want %q", name, e.Text, c.want)
		}
		if r := []rune(e.Text); e.Col < 1 || e.Col > len(r) || r[e.Col-1] != []rune(c.text)[c.at-1] {
			t.Errorf("%s: column %d of %q", name, e.Col, e.Text)
		}
		if len([]rune(strings.Trim(e.Text, "…"))) > ExcerptWidth {
			t.Errorf("%s: %d characters", name, len([]rune(e.Text)))
		}
	}
}
