package source

import (
	"strings"
	"testing"
)

func TestInspect(t *testing.T) {
	for _, tc := range []struct {
		name        string
		doc         string
		cloudConfig bool
		absent      string
		err         string
	}{
		{"standalone block", "role: worker\n", false, "", ""},
		{"standalone with a typo beside a block key", "role: worker\nwireguards: []\n", false, "", ""},
		{"only a typo", "rol: worker\n", false, "", `"rol"`},
		{"single corium key", "corium:\n  role: worker\n", false, "", ""},
		{"empty corium key", "corium:\n", false, "", ""},
		{"embedded", "#cloud-config\nhostname: h\ncorium:\n  role: single\n", false, "", ""},
		{"embedded header with trailing space", "#cloud-config \r\nhostname: h\n", false, "cloud-config has no corium key", ""},
		{"cloud-config without corium", "#cloud-config\nhostname: h\n", false, "cloud-config has no corium key", ""},
		{"cloud-init source with a block key but no corium", "role: worker\n", true, "cloud-config has no corium key", ""},
		{"cloud-init source with corium", "corium:\n  role: worker\nusers: []\n", true, "", ""},
		{"comments only", "# nothing\n", false, "", "only comments"},
		{"cloud-config comments only", "#cloud-config\n# nothing\n", false, "cloud-config has no corium key", ""},
		{"a scalar", "worker\n", false, "", "a scalar"},
		{"a list", "- role: worker\n", false, "", "a list"},
		{"syntax error", "role: worker\n  bad: indent\n", false, "", "line 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, absent, err := Inspect([]byte(tc.doc), tc.cloudConfig)
			if absent != tc.absent {
				t.Errorf("absent %q, want %q", absent, tc.absent)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error %v, want %q", err, tc.err)
			}
		})
	}
}
