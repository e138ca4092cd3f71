package cluster_test

import (
	"strings"
	"testing"
)

// A duplicated address or a cloned key pair makes every peer of that node
// look wrong; the finding that names the cause comes first, and what
// follows from it says so, rather than sending the operator to the files
// that are right.
func TestClusterRootCauseFirst(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  edit
		cause want
	}{
		{"a duplicate node address", edit{"w1.yaml", "address: 10.30.0.11/24", "address: 10.30.0.2/24"},
			want{w1File, "wireguard[0].address[0]", errorSev, "10.30.0.2 is also the address of"}},
		{"a key pair cloned onto two nodes", edit{"w1.yaml", "publicKey: " + w1Public, "publicKey: " + a2Public},
			want{w1File, "wireguard[0].publicKey", errorSev, "gives this interface the key pair of"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := checkSet(t, true, tc.edit)
			if len(fs) < 2 {
				t.Fatalf("want the cause and what follows from it:\n%s", lines(fs))
			}
			first := fs[0]
			if first.File != tc.cause.file || first.Path != tc.cause.path || !strings.Contains(first.Message, tc.cause.says) {
				t.Errorf("the cause is not first:\n%s", lines(fs))
			}
			for _, f := range fs[1:] {
				if !strings.Contains(f.Message, "follows from "+tc.cause.file+" "+tc.cause.path) {
					t.Errorf("does not say it follows from the cause: %s %s", f.File, f.String())
				}
			}
		})
	}
}
