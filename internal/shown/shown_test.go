package shown

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/shown/showntest"
)

// A plain name stays plain; anything else is quoted, in printable ASCII,
// and reads back as the value it was.
func TestText(t *testing.T) {
	for _, s := range []string{"kube-apiserver", "k0scontroller.service", "eth0", "kubepods.slice/kubepods-podabc.slice", "", "a b:c"} {
		if got := Text(s); got != s {
			t.Errorf("Text(%q) = %s, want it as it is", s, got)
		}
	}
	for _, s := range []string{showntest.Hostile, "eth0\n", "caf\u00e9", "\x7f", "a\u202eb", "\xff"} {
		got := Text(s)
		for i := range len(got) {
			if got[i] < 0x20 || got[i] > 0x7e {
				t.Fatalf("Text(%q) holds byte %#x at %d: %q", s, got[i], i, got)
			}
		}
		if back, err := strconv.Unquote(got); err != nil || back != s {
			t.Errorf("Text(%q) = %s does not read back (%v)", s, got, err)
		}
		if Text(got) != got {
			t.Errorf("Text is not stable on its own result %s", got)
		}
	}
}

// Line leaves no control or format character and no line break; Lines
// keeps only the line breaks; a sentence of printable text stays as it is.
func TestLine(t *testing.T) {
	const plain = "reading /var/lib/corium/applied.yaml: permission denied; caf\u00e9"
	if Line(plain) != plain || Lines(plain+"\n"+plain) != plain+"\n"+plain {
		t.Errorf("a printable sentence changed: %q", Line(plain))
	}
	line := Line("what: " + showntest.Hostile)
	if raw := showntest.Raw(line); len(raw) > 0 || strings.Contains(line, "\n") {
		t.Errorf("Line left %v raw, or a line break: %q", raw, line)
	}
	lines := Lines("what: " + showntest.Hostile)
	if raw := showntest.Raw(lines); len(raw) > 0 {
		t.Errorf("Lines left %v raw: %q", raw, lines)
	}
	if !showntest.ForgedLine(lines) || strings.Count(lines, "\n") != strings.Count(showntest.Hostile, "\n") {
		t.Errorf("Lines did not keep the line breaks: %q", lines)
	}
	if got := Line("a\x1b[2Jb\u202ec\xffd\n"); got != `a\x1b[2Jb\u202ec\xffd\n` {
		t.Errorf("Line spells the escapes %s", got)
	}
}

// encoding/json leaves DEL, C1 and the format characters raw (the reason
// for JSON); after JSON none is, and the document reads back the same.
func TestJSON(t *testing.T) {
	v := map[string]any{"comm": showntest.Hostile, "list": []string{"eth0", "\u202e0hte"}, "n": 1}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if raw := showntest.Raw(string(b)); len(raw) == 0 {
		t.Fatal("encoding/json escaped everything itself: JSON is not needed, or the hostile text lost its characters")
	}
	got := JSON(b)
	if raw := showntest.Raw(string(got)); len(raw) > 0 {
		t.Errorf("JSON left %v raw:\n%s", raw, got)
	}
	var before, after any
	if err := json.Unmarshal(b, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &after); err != nil {
		t.Fatalf("JSON wrote no JSON: %v\n%s", err, got)
	}
	if a, _ := json.Marshal(after); string(a) != string(must(json.Marshal(before))) {
		t.Errorf("the values changed:\n%s\n%s", must(json.Marshal(before)), a)
	}
	if plain := []byte(`{"comm": "sshd"}` + "\n"); string(JSON(plain)) != string(plain) {
		t.Errorf("a document with nothing to escape changed: %s", JSON(plain))
	}
	// A format character past U+FFFF is a surrogate pair in JSON.
	if got := string(JSON([]byte("\"\U000e0001\""))); got != `"\udb40\udc01"` {
		t.Errorf("U+E0001 written %s", got)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
