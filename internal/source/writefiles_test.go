package source

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
)

const writtenDoc = "role: worker\njoin:\n  tokenFrom: {file: /etc/corium/token}\n"

func gz(t *testing.T, s string) []byte { return fixture.Gzip(t, []byte(s)) }

// encodedEntries is one write_files entry for every encoding cloud-init's
// canonicalize_extraction knows, in the spellings it accepts (any case,
// space around it), each carrying writtenDoc.
func encodedEntries(t *testing.T) map[string]string {
	t.Helper()
	b64 := base64.StdEncoding.EncodeToString([]byte(writtenDoc))
	gzB64 := base64.StdEncoding.EncodeToString(gz(t, writtenDoc))
	folded := func(s string) string { // base64 broken over lines, as tools wrap it
		var lines []string
		for len(s) > 20 {
			lines, s = append(lines, s[:20]), s[20:]
		}
		return "|\n      " + strings.Join(append(lines, s), "\n      ")
	}
	plain := "|\n      " + strings.ReplaceAll(strings.TrimSuffix(writtenDoc, "\n"), "\n", "\n      ") + "\n"
	out := map[string]string{
		"":                  plain,
		"text/plain":        plain,
		"TEXT/PLAIN":        plain,
		"b64":               b64,
		"base64":            folded(b64),
		" B64 ":             b64,
		"gz+b64":            gzB64,
		"gz+base64":         folded(gzB64),
		"gzip+base64":       gzB64,
		"gzip+b64":          gzB64,
		"GZIP+B64":          gzB64,
		"gz":                "!!binary " + gzB64,
		"gzip":              "!!binary |\n      " + gzB64,
		"something-unknown": plain,
	}
	return out
}

func cloudConfigWriting(enc, content string) string {
	e := ""
	if enc != "" {
		e = fmt.Sprintf("    encoding: %q\n", enc)
	}
	return "#cloud-config\nwrite_files:\n  - path: /etc/corium/config.yaml\n    permissions: \"0600\"\n" + e + "    content: " + content + "\n"
}

// TestWriteFilesDecodesEveryEncoding holds WriteFiles to cloud-init itself:
// each entry is decoded by cloud-init's own cc_write_files functions on its
// own YAML loader, and the bytes must be the same.
func TestWriteFilesDecodesEveryEncoding(t *testing.T) {
	host.RequireCommands(t, "/usr/bin/python3", "cloud-init")
	entries := encodedEntries(t)
	docs := map[string]string{}
	var all []string
	for enc, content := range entries {
		docs[enc] = cloudConfigWriting(enc, content)
		all = append(all, docs[enc])
	}
	want := cloudInitDecodes(t, all)
	for enc, doc := range docs {
		files, err := WriteFiles([]byte(doc))
		if err != nil || len(files) != 1 {
			t.Errorf("%q: WriteFiles: %d entries, %v\n%s", enc, len(files), err, doc)
			continue
		}
		if !bytes.Equal(files[0].Content, want[doc]) {
			t.Errorf("%q: decoded %q, cloud-init writes %q", enc, files[0].Content, want[doc])
		}
		if string(want[doc]) != writtenDoc && enc != "something-unknown" {
			t.Errorf("%q: cloud-init writes %q, the test meant %q", enc, want[doc], writtenDoc)
		}
		if files[0].Unknown != (enc == "something-unknown") {
			t.Errorf("Unknown = %v for encoding %q", files[0].Unknown, enc)
		}
	}
}

// cloudInitDecodes runs the installed cloud-init's write_files decoding on
// the first entry of each document, in one python.
func cloudInitDecodes(t *testing.T, docs []string) map[string][]byte {
	t.Helper()
	const script = `import sys, json, base64
from cloudinit import safeyaml
from cloudinit.config.cc_write_files import canonicalize_extraction, extract_contents
out = []
for doc in json.load(sys.stdin):
    f = safeyaml.load(doc)["write_files"][0]
    b = extract_contents(f.get("content", ""), canonicalize_extraction(f.get("encoding")))
    out.append(base64.b64encode(b if isinstance(b, bytes) else b.encode()).decode())
json.dump(out, sys.stdout)`
	in, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/usr/bin/python3", "-c", script)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	raw, err := cmd.Output()
	if err != nil {
		t.Fatalf("cloud-init's decoding: %v\n%s", err, stderr.String())
	}
	var got [][]byte
	if err := json.Unmarshal(raw, &got); err != nil || len(got) != len(docs) {
		t.Fatalf("cloud-init's decoding: %d results for %d documents (%v)", len(got), len(docs), err)
	}
	out := map[string][]byte{}
	for i, d := range docs {
		out[d] = got[i]
	}
	return out
}

// A broken encoding is named by its entry and never quotes the content.
func TestWriteFilesBrokenEncoding(t *testing.T) {
	for enc, content := range map[string]string{
		"b64":    "not*base64*at*all",
		"gz":     "!!binary " + base64.StdEncoding.EncodeToString([]byte("plain, not gzip")),
		"gz+b64": base64.StdEncoding.EncodeToString(gz(t, writtenDoc)[:20]),
	} {
		_, err := WriteFiles([]byte(cloudConfigWriting(enc, content)))
		if err == nil || !strings.HasPrefix(err.Error(), "write_files[0].content: ") {
			t.Errorf("%s: error %v, want one naming write_files[0].content", enc, err)
			continue
		}
		if strings.Contains(err.Error(), "role") || strings.Contains(err.Error(), content) {
			t.Errorf("%s: the error quotes the content: %v", enc, err)
		}
	}
}

func TestUnpackWriteFiles(t *testing.T) {
	t.Run("the written file is the document, its lines the cloud-config's", func(t *testing.T) {
		doc := cloudConfigWriting("", encodedEntries(t)[""])
		d, err := Unpack([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Data) != writtenDoc || d.Via != "write_files[0].content" || len(d.Notes) != 0 {
			t.Fatalf("delivery %+v", d)
		}
		// "tokenFrom" is line 3, column 3 of the document.
		line, col, ok := d.Position(3, 3)
		lines := strings.Split(doc, "\n")
		if !ok || !strings.HasPrefix(lines[line-1][col-1:], "tokenFrom") {
			t.Errorf("position 3:3 maps to %d:%d (%v), which is not where tokenFrom stands:\n%s", line, col, ok, doc)
		}
	})
	t.Run("an encoded document has no position in the file", func(t *testing.T) {
		d, err := Unpack([]byte(cloudConfigWriting("gz+b64", encodedEntries(t)["gz+b64"])))
		if err != nil || string(d.Data) != writtenDoc {
			t.Fatalf("%+v %v", d, err)
		}
		if where, l, c := d.Where("w1.yaml", 3, 3); where != "w1.yaml (write_files[0].content)" || l != 3 || c != 3 {
			t.Errorf("Where = %s:%d:%d", where, l, c)
		}
	})
	t.Run("deferred is written after the agent runs", func(t *testing.T) {
		doc := strings.Replace(cloudConfigWriting("b64", encodedEntries(t)["b64"]), "    content:", "    defer: yes\n    content:", 1)
		if _, err := Unpack([]byte(doc)); err == nil || !strings.Contains(err.Error(), "write_files[0].defer") {
			t.Errorf("a deferred entry: %v, want an error naming write_files[0].defer", err)
		}
	})
	t.Run("later entries replace or append, as cloud-init writes them", func(t *testing.T) {
		doc := "#cloud-config\nwrite_files:\n" +
			"  - {path: /etc/corium/config.yaml, permissions: '0600', content: 'role: single'}\n" +
			"  - {path: /etc/hostname, content: box}\n" +
			"  - {path: /etc/corium/../corium/config.yaml, permissions: '0600', content: \"role: worker\\n\"}\n" +
			"  - {path: /etc/corium/config.yaml, permissions: '0600', append: true, encoding: b64, content: " + base64.StdEncoding.EncodeToString([]byte("join: {token: x}\n")) + "}\n"
		d, err := Unpack([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if string(d.Data) != "role: worker\njoin: {token: x}\n" || d.Via != "write_files[2].content+write_files[3].content" {
			t.Errorf("data %q via %q", d.Data, d.Via)
		}
		if _, _, ok := d.Position(1, 1); ok {
			t.Error("a document made of two entries claims a position in the file")
		}
	})
	t.Run("notes", func(t *testing.T) {
		doc := strings.Replace(cloudConfigWriting("uuencode", encodedEntries(t)[""]), "    permissions: \"0600\"\n", "", 1) + "corium:\n  role: single\n"
		d, err := Unpack([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(d.Notes)
		for _, want := range []string{"write_files[0].encoding", "write_files[0].permissions", `"corium"`} {
			if !strings.Contains(string(got), want) {
				t.Errorf("notes %s lack %s", got, want)
			}
		}
	})
	t.Run("a cloud-config without the file is handed on as it is", func(t *testing.T) {
		doc := "#cloud-config\nwrite_files:\n  - {path: /etc/motd, content: hi}\ncorium:\n  role: single\n"
		d, err := Unpack([]byte(doc))
		if err != nil || string(d.Data) != doc || d.Via != "" {
			t.Errorf("%+v %v", d, err)
		}
	})
}

func TestUnpackCmdline(t *testing.T) {
	inline := "data:;base64," + base64.StdEncoding.EncodeToString([]byte(docCmdline))
	for _, tc := range []struct {
		name, line, err string
	}{
		{"pinned", "BOOT_IMAGE=/vmlinuz corium.config.sha256=" + sha(docCmdline) + " corium.config=" + inline + " quiet\n", ""},
		{"unpinned", "corium.config=" + inline, ""},
		{"pin differs", "corium.config=" + inline + " corium.config.sha256=" + sha("another"), "digest mismatch"},
		{"a URL", "corium.config=https://example.net/w1.yaml", "does not carry the document inline"},
		{"a path", "corium.config=/etc/w1.yaml", "does not carry the document inline"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Unpack([]byte(tc.line))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(d.Data) != docCmdline || !d.OnCmdline || d.Via != "corium.config" {
				t.Errorf("delivery %+v", d)
			}
			if pinned := strings.Contains(tc.line, "sha256"); pinned != strings.Contains(d.How, "sha256 verified") {
				t.Errorf("how %q for %s", d.How, tc.line)
			}
		})
	}
}

// A YAML document is handed on as it is, syntax errors included: the
// schema reports them with their lines.
func TestUnpackLeavesDocumentsAlone(t *testing.T) {
	for _, doc := range []string{docFile, docCloudInit, "role: [\n", "#cloud-config\ncorium: [\n", "# corium.config=data:,x\nrole: single\n"} {
		d, err := Unpack([]byte(doc))
		if err != nil || string(d.Data) != doc || d.Via != "" {
			t.Errorf("%q: %+v %v", doc, d, err)
		}
	}
}
