package chain

import (
	"bytes"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// docWritten is the document a cloud-config's write_files writes to
// source.FilePath.
const docWritten = "role: worker\njoin:\n  tokenFrom: {file: /etc/corium/token}\n"

// writing is a cloud-config whose write_files writes source.FilePath with
// content in enc ("" for plain text).
func writing(enc, content string) string {
	if enc != "" {
		enc = "    encoding: " + enc + "\n"
	}
	return "#cloud-config\nwrite_files:\n  - path: " + source.FilePath + "\n    permissions: \"0600\"\n" + enc + "    content: " + content + "\n"
}

// --config FILE reads every shape validate reads (source.Unpack), in place of the
// chain, and its provenance says where in the file the document was.
func TestConfigFileReadsEveryDeliveryShape(t *testing.T) {
	inline := "data:;base64," + base64.StdEncoding.EncodeToString([]byte(docCmdline))
	pin := sha(docCmdline)
	for _, tc := range []struct {
		name, text, doc, reason string
		onCmdline               bool
	}{
		{"standalone", docFile, docFile, "", false},
		{"cloud-config with corium:", docCloudInit, docCloudInit, "", false},
		{"write_files gz+b64", writing("gz+b64", fixture.GzipBase64(t, []byte(docWritten))), docWritten, "write_files[0].content (gz+b64)", false},
		{"write_files plain", writing("", "|\n      "+strings.ReplaceAll(strings.TrimSuffix(docWritten, "\n"), "\n", "\n      ")), docWritten, "write_files[0].content", false},
		{"a kernel command line", "BOOT_IMAGE=/vmlinuz corium.config.sha256=" + pin + " corium.config=" + inline + " quiet\n", docCmdline, "corium.config (data: URL, 43 bytes inline, sha256 verified)", true},
		{"a GRUB entry", "menuentry n {\n  linux /vmlinuz corium.config.sha256=" + pin + " 'corium.config=" + inline + "'\n}\n", docCmdline, "line 2 (GRUB linux) corium.config (GRUB's quotes undone, data: URL, 43 bytes inline, sha256 verified)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "node.cfg")
			if err := os.WriteFile(file, []byte(tc.text), 0o600); err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			res, err := Find(t.Context(), Options{Root: rootfs.New(t.TempDir()), ConfigFile: file, Logger: slogTo(&log)})
			if err != nil {
				t.Fatal(err)
			}
			if string(res.Data) != tc.doc || res.Source != file || res.OnCmdline != tc.onCmdline || res.Tree == nil {
				t.Errorf("result %+v, data %q", res, res.Data)
			}
			if len(res.Tried) != 1 || res.Tried[0].Reason != tc.reason {
				t.Errorf("tried %+v, want the reason %q", res.Tried, tc.reason)
			}
			if (res.Pin == pin) != tc.onCmdline {
				t.Errorf("pin %q", res.Pin)
			}
		})
	}
}

func TestConfigFileRefusals(t *testing.T) {
	dir := t.TempDir()
	inline := "data:;base64," + base64.StdEncoding.EncodeToString([]byte(docCmdline))
	for name, tc := range map[string]struct{ text, want string }{
		"a pin that differs":   {"corium.config.sha256=" + sha("other") + " corium.config=" + inline, "digest mismatch"},
		"a URL":                {"corium.config=https://example.net/c.yaml", "does not carry the document inline"},
		"a deferred write":     {strings.Replace(writing("b64", base64.StdEncoding.EncodeToString([]byte(docWritten))), "    content:", "    defer: true\n    content:", 1), "write_files[0].defer"},
		"not YAML in the file": {"#cloud-config\nwrite_files:\n  - {path: /etc/corium/config.yaml, content: 'role: ['}\n", "(write_files[0].content): YAML syntax error"},
	} {
		file := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		if err := os.WriteFile(file, []byte(tc.text), 0o600); err != nil {
			t.Fatal(err)
		}
		res, err := Find(t.Context(), Options{Root: rootfs.New(dir), ConfigFile: file, Logger: slogTo(&bytes.Buffer{})})
		if err == nil || !strings.Contains(err.Error(), tc.want) || len(res.Tried) != 1 || res.Tried[0].Outcome != Failed {
			t.Errorf("%s: %v (%+v), want %q", name, err, res, tc.want)
		}
	}
	// With no source after it, a file without a block is not absent: it is
	// used, and validation refuses it as validate does.
	none := filepath.Join(dir, "none.yaml")
	if err := os.WriteFile(none, []byte("#cloud-config\nhostname: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if res, err := Find(t.Context(), Options{Root: rootfs.New(dir), ConfigFile: none, Logger: slogTo(&bytes.Buffer{})}); err != nil || res.Source != none || res.Tree == nil {
		t.Errorf("no block: %+v %v", res, err)
	}
	if _, err := Find(t.Context(), Options{Root: rootfs.New(dir), ConfigFile: dir, Logger: slogTo(&bytes.Buffer{})}); err == nil || !strings.Contains(err.Error(), "is a directory; name the one file") {
		t.Errorf("a directory: %v", err)
	}
}
