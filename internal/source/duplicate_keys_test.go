package source

import (
	"strings"
	"testing"
)

// A cloud-config that repeats a top-level key is refused naming both
// lines, whichever copy would hand the agent a document: cloud-init's YAML
// loader keeps the last, so the agent must read no other. A repeat below
// the top level is the schema's to find, and the same key once is fine.
func TestUnpackRefusesRepeatedTopKeys(t *testing.T) {
	written := "write_files:\n  - path: /etc/corium/config.yaml\n    content: |\n      role: single\n"
	other := "write_files:\n  - path: /etc/motd\n    content: hi\n"
	for name, tc := range map[string]struct {
		doc  string
		want string // "" for no refusal
	}{
		"two write_files, the first writing the document": {"#cloud-config\n" + written + "runcmd: [echo]\n" + other, "line 7: write_files: duplicate key at the top level of the cloud-config; first given on line 2"},
		"two write_files, the last writing the document":  {"#cloud-config\n" + other + written, "line 5: write_files: duplicate key at the top level of the cloud-config; first given on line 2"},
		"two corium keys":    {"#cloud-config\ncorium:\n  role: single\ncorium:\n  role: worker\n", "line 4: corium: duplicate key at the top level of the cloud-config; first given on line 2"},
		"once each":          {"#cloud-config\n" + written + "corium:\n  role: single\n", ""},
		"not a cloud-config": {"role: single\nrole: worker\n", ""},
		"a list at the top":  {"#cloud-config\n- a\n- a\n", ""},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Unpack([]byte(tc.doc))
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
