package schema

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/finding"
)

const embedded = "#cloud-config\npackages: [vim]\nusers: []\ncorium:\n  role: single\n"

// A cloud-config whose header cloud-init would not see gives one finding,
// naming the byte order mark or the line that must come first, instead of
// one for each cloud-init key read as an unknown corium key.
func TestMisplacedHeaderIsOneFinding(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		line      int
		says      string
	}{
		{"byte order mark", "\ufeff" + embedded, 1, "byte order mark (U+FEFF) before #cloud-config"},
		{"modeline above", "# vim: syntax=yaml\n" + embedded, 2, "#cloud-config is on line 2"},
		{"modeline and a blank line above", "# yaml-language-server: $schema=x.json\n\n" + embedded, 3, "#cloud-config is on line 3"},
		{"byte order mark and a modeline", "\ufeff# vim: ft=yaml\n" + embedded, 2, "#cloud-config is on line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.doc))
			if err != nil {
				t.Fatal(err)
			}
			fs := Validate(doc)
			if len(fs) != 1 || fs[0].Line != tc.line || fs[0].Col != 1 || !strings.Contains(fs[0].Message, tc.says) || fs[0].Severity != finding.Error {
				t.Fatalf("findings %v, want one error at %d:1 saying %q", fs, tc.line, tc.says)
			}
			tree, _ := ReadTree([]byte(tc.doc), false)
			if _, err := tree.Holds(); err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Errorf("the source chain is told %v, want the same finding", err)
			}
		})
	}
}

// cloud-init's reading of the header, which the agent shares: leading
// blank lines and case do not matter, a comment below the header is fine,
// and a BOM before a standalone document is no cloud-config matter.
func TestHeaderAsCloudInitReadsIt(t *testing.T) {
	for name, doc := range map[string]string{
		"blank lines first":     "\n\n" + embedded,
		"upper case":            strings.Replace(embedded, "#cloud-config", "#Cloud-Config", 1),
		"modeline below":        strings.Replace(embedded, "\n", "\n# vim: syntax=yaml\n", 1),
		"standalone with a BOM": "\ufeff# a node\nrole: single\n",
	} {
		d, err := Parse([]byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		if fs := Validate(d); len(fs) != 0 || d.Config == nil || d.Config.Role != RoleSingle {
			t.Errorf("%s: findings %v", name, fs)
		}
	}
	if IsCloudConfig([]byte("#cloud-config-archive\n- a\n")) {
		t.Error("#cloud-config-archive is another format to cloud-init")
	}
}
