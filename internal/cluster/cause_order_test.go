package cluster_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
	"github.com/corium/corium-agent/internal/cluster/clustergen"
)

// Each rule of "the cause first" on a set that shows it: the first finding
// is the cause, at the node and field at fault, and the findings are as
// recorded in testdata/cause/RULE.txt, fixes included (-update rewrites
// them; the first finding is held apart, so an update cannot bless a
// miss).
func TestCauseFirstGolden(t *testing.T) {
	for _, tc := range []struct {
		rule  string
		check func(t *testing.T) cluster.Findings
		file  string
		path  string
		// fixFirst: the cause prints its fix; no finding after it does.
		fixFirst bool
	}{
		// A mixed CNI names the one node with another CNI, at the field it
		// has, though its file comes first: not the two that are right.
		{"minority-cni", func(t *testing.T) cluster.Findings {
			return checkSet(t, false, edit{"a1.yaml", "role: controller+worker\n", "role: controller+worker\nnetwork: {cni: calico}\n"})
		}, "a1.yaml", "network.cni", false},
		// Two entries' keys swapped: the swap and the keys to put back,
		// and nothing that follows from it.
		{"keys-swapped", func(t *testing.T) cluster.Findings {
			return checkSet(t, false,
				edit{"a1.yaml", "publicKey: " + a2Public + " # a2", "publicKey: " + w1Public + " # a2"},
				edit{"a1.yaml", "publicKey: " + w1Public + " # w1", "publicKey: " + a2Public + " # w1"})
		}, "a1.yaml", "wireguard[0].peers[0].publicKey", true},
		// The same with the entry of a hub that routes other nodes too:
		// its addresses name no one node, and the fix is still the swap,
		// not the other node's address added to the hub's entry.
		{"keys-swapped-through-hub", func(t *testing.T) cluster.Findings {
			s := clustergen.Generate(5).Clone()
			w1 := s.Nodes[3]
			if w1.Name != "w1" || len(w1.Peers[0].AllowedIPs) < 2 || len(w1.Peers[1].AllowedIPs) != 1 {
				t.Fatalf("seed 5 no longer routes through the hub from w1: %s", s)
			}
			w1.Peers[0].PublicKey, w1.Peers[1].PublicKey = w1.Peers[1].PublicKey, w1.Peers[0].PublicKey
			return checkGenerated(t, s)
		}, "w1.yaml", "wireguard[0].peers[0].publicKey", true},
		// A key pair cloned onto a second node: the clone first, then what
		// follows from it, marked so and without a fix.
		{"key-pair-cloned", func(t *testing.T) cluster.Findings {
			return checkSet(t, true, edit{"w1.yaml", "publicKey: " + w1Public, "publicKey: " + a2Public})
		}, w1File, "wireguard[0].publicKey", false},
		// The same given to the earlier file: the node named is the one
		// whose peers list another key for it, not the later file.
		{"key-pair-cloned-earlier", func(t *testing.T) cluster.Findings {
			return checkSet(t, true, edit{"a2.yaml", "publicKey: " + a2Public, "publicKey: " + w1Public})
		}, a2File, "wireguard[0].publicKey", false},
		// An overlay address taken by the earlier file: named there, since
		// every peer holds that address for the other node's key.
		{"address-taken-earlier", func(t *testing.T) cluster.Findings {
			return checkSet(t, true, edit{"a2.yaml", "address: 10.30.0.2/24", "address: 10.30.0.11/24"})
		}, a2File, "wireguard[0].address[0]", false},
		// A changed listenPort is named at the node that changed it, not
		// at each node that dials it.
		{"listen-port-changed", func(t *testing.T) cluster.Findings {
			return checkSet(t, false, edit{"a2.yaml", "listenPort: 51820", "listenPort: 51821"})
		}, a2File, "wireguard[0].listenPort", false},
	} {
		t.Run(tc.rule, func(t *testing.T) {
			fs := tc.check(t)
			if len(fs) == 0 || fs[0].File != tc.file || fs[0].Path != tc.path {
				t.Fatalf("the first finding is not the cause at %s %s:\n%s", tc.file, tc.path, printed(fs))
			}
			if tc.fixFirst {
				if fs[0].Fix == "" {
					t.Errorf("the cause prints no fix")
				}
				for _, f := range fs[1:] {
					if f.Fix != "" {
						t.Errorf("a finding after the cause prints a fix:\n%s %s\n%s", f.File, f.String(), f.Fix)
					}
				}
			}
			for _, f := range fs[1:] {
				if f.FollowsFrom == nil && f.Severity == errorSev && tc.rule != "minority-cni" {
					t.Errorf("an error that does not follow from the cause:\n%s", printed(fs))
				}
			}
			got := printedWithFixes(fs)
			golden := filepath.Join("testdata", "cause", tc.rule+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want := string(readFile(t, golden)); got != want {
				t.Errorf("findings differ from %s (go test -update rewrites it):\n got:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// printedWithFixes is printed, each fix indented under its finding, as
// validate prints it.
func printedWithFixes(fs cluster.Findings) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(printed(cluster.Findings{f}))
		for _, l := range strings.Split(strings.TrimSuffix(f.Fix, "\n"), "\n") {
			if l != "" {
				b.WriteString("    " + l + "\n")
			}
		}
	}
	return b.String()
}
