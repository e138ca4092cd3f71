package cluster_test

import (
	"strings"
	"testing"
)

// A file invalid on its own is named once, first, and the other files get
// no finding that only its refused content explains.
func TestClusterInvalidFileNamedOnce(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  edit
		first want
	}{
		{"a document that does not parse", edit{"a1.yaml", "role: controller+worker", "role: [controller+worker"},
			want{"a1.yaml", "", errorSev, "is invalid on its own, so the set is checked without it"}},
		{"a refused role", edit{"w1.yaml", "role: worker", "role: wroker"},
			want{w1File, "", errorSev, "is invalid on its own, so the set is checked without it"}},
		{"a refused peer key", edit{"a1.yaml", "publicKey: " + a2Public + " # a2", "publicKey: nope # a2"},
			want{"a1.yaml", "wireguard[0].peers[0].publicKey", errorSev, "is refused on its own, so what the other files say of it is not checked (1 finding left out)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := checkSet(t, true, tc.edit)
			if len(fs) != 1 {
				t.Fatalf("want one finding naming the invalid file:\n%s", lines(fs))
			}
			expect(t, fs, tc.first)
			for _, noise := range []string{"a peer outside the set", "has no peer for", "is missing on this controller"} {
				if strings.Contains(lines(fs), noise) {
					t.Errorf("noise from the invalid file: %s", lines(fs))
				}
			}
		})
	}
}
