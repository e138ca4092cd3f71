package cluster_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// nodeSet is a cluster in testdata: plain documents, which the tests edit,
// and the files its nodes are handed, made from them the way an operator
// makes them.
type nodeSet struct {
	dir string
	// docs are the plain documents in the order the files are given.
	docs []string
	// deliver turns a plain document into the file its node is handed.
	deliver map[string]delivery
}

type delivery struct {
	name string
	wrap func(t *testing.T, doc []byte) []byte
}

// The three-node cluster of testdata/three-nodes: two controllers at site
// A and a worker at site B. a1 is a standalone file, a2 reaches its node
// through cloud-init's write_files (gz+b64), w1 inline on a PXE kernel
// command line.
var threeNodeSet = nodeSet{
	dir:  "testdata/three-nodes",
	docs: []string{"a1.yaml", "a2.yaml", "w1.yaml"},
	deliver: map[string]delivery{
		"a1.yaml": {"a1.yaml", asItIs},
		"a2.yaml": {"a2-user-data.yaml", writeFilesGzB64},
		"w1.yaml": {"w1-cmdline.txt", kernelCmdline},
	},
}

// The five-node cluster of testdata/ha-five-nodes: two controllers at site
// A sharing a virtual IP over unicast VRRP, a third controller at site B
// without ha, a worker at site B and one behind NAT. c1 and w1 are
// standalone files, c2 a cloud-config with the block under corium:, c3 a
// cloud-config writing the file with plain content, w2 a PXE kernel command
// line.
var haFiveNodeSet = nodeSet{
	dir:  "testdata/ha-five-nodes",
	docs: []string{"c1.yaml", "c2.yaml", "c3.yaml", "w1.yaml", "w2.yaml"},
	deliver: map[string]delivery{
		"c1.yaml": {"c1.yaml", asItIs},
		"c2.yaml": {"c2-user-data.yaml", cloudConfigBlock},
		"c3.yaml": {"c3-user-data.yaml", writeFilesPlain},
		"w1.yaml": {"w1.yaml", asItIs},
		"w2.yaml": {"w2-cmdline.txt", kernelCmdline},
	},
}

// files are the delivered files, in order.
func (s nodeSet) files() []string {
	var out []string
	for _, d := range s.docs {
		out = append(out, s.deliver[d].name)
	}
	return out
}

func asItIs(_ *testing.T, doc []byte) []byte { return doc }

func writeFilesGzB64(t *testing.T, doc []byte) []byte {
	return []byte("#cloud-config\n" +
		"# a2: the node's corium configuration, written before corium-agent runs\n" +
		"hostname: a2\n" +
		"write_files:\n" +
		"  - path: /etc/corium/config.yaml\n" +
		"    owner: root:root\n" +
		"    permissions: \"0600\"\n" +
		"    encoding: gz+b64\n" +
		"    content: " + fixture.GzipBase64(t, doc) + "\n")
}

func writeFilesPlain(_ *testing.T, doc []byte) []byte {
	return []byte("#cloud-config\n" +
		"hostname: c3\n" +
		"write_files:\n" +
		"  - path: /etc/corium/config.yaml\n" +
		"    permissions: \"0600\"\n" +
		"    content: |\n" + indent(doc, "      "))
}

func cloudConfigBlock(_ *testing.T, doc []byte) []byte {
	return []byte("#cloud-config\n" +
		"hostname: c2\n" +
		"corium:\n" + indent(doc, "  "))
}

func indent(doc []byte, by string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(string(doc), "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(by)
		}
		b.WriteString(l)
	}
	return b.String()
}

func kernelCmdline(_ *testing.T, doc []byte) []byte {
	sum := sha256.Sum256(doc)
	return []byte("BOOT_IMAGE=/vmlinuz root=UUID=2f1c rw quiet ip=dhcp corium.config.sha256=" + hex.EncodeToString(sum[:]) +
		" corium.config=data:;base64," + base64.StdEncoding.EncodeToString(doc) + "\n")
}

// plainDocs reads the plain documents, by name.
func (s nodeSet) plainDocs(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, name := range s.docs {
		out[name] = readFile(t, filepath.Join(s.dir, name))
	}
	return out
}

// TestDeliveredFormsAreThePlainDocuments holds the committed delivered
// files to the plain documents, so the passing tests check the files an
// operator would hand over, and the edits of the mistake tests reach them.
func TestDeliveredFormsAreThePlainDocuments(t *testing.T) {
	for _, s := range []nodeSet{threeNodeSet, haFiveNodeSet} {
		for name, doc := range s.plainDocs(t) {
			d := s.deliver[name]
			if d.name == name {
				continue
			}
			p := filepath.Join(s.dir, d.name)
			if *update {
				if err := os.WriteFile(p, d.wrap(t, doc), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			n := read(t, d.name, readFile(t, p))
			// A block under corium: is the file's own text, not a copy.
			if got := n.Delivery.Data; !bytes.Equal(got, doc) && !bytes.Equal(readFile(t, p), d.wrap(t, doc)) {
				t.Errorf("%s does not deliver %s; run go test ./internal/cluster -update", d.name, name)
			}
		}
	}
}
