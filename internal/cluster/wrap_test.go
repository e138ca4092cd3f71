package cluster_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/testutil"
)

// The three-node cluster of testdata/three-nodes: two controllers at site
// A and a worker at site B. a1 is a standalone file, a2 reaches its node
// through cloud-init's write_files (gz+b64), w1 inline on a PXE kernel
// command line. The plain documents are what the tests edit; the delivered
// forms are made from them the way an operator makes them.
const threeNodes = "testdata/three-nodes"

// deliver turns the plain documents into the files the nodes are handed.
var deliver = map[string]struct {
	name string
	wrap func(t *testing.T, doc []byte) []byte
}{
	"a1.yaml": {"a1.yaml", func(_ *testing.T, doc []byte) []byte { return doc }},
	"a2.yaml": {"a2-user-data.yaml", writeFilesGzB64},
	"w1.yaml": {"w1-cmdline.txt", kernelCmdline},
}

func writeFilesGzB64(t *testing.T, doc []byte) []byte {
	return []byte("#cloud-config\n" +
		"# a2: the node's corium configuration, written before corium-agent runs\n" +
		"hostname: a2\n" +
		"write_files:\n" +
		"  - path: /etc/corium/config.yaml\n" +
		"    owner: root:root\n" +
		"    permissions: \"0600\"\n" +
		"    encoding: gz+b64\n" +
		"    content: " + testutil.GzipBase64(t, doc) + "\n")
}

func kernelCmdline(_ *testing.T, doc []byte) []byte {
	sum := sha256.Sum256(doc)
	return []byte("BOOT_IMAGE=/vmlinuz root=UUID=2f1c rw quiet ip=dhcp corium.config.sha256=" + hex.EncodeToString(sum[:]) +
		" corium.config=data:;base64," + base64.StdEncoding.EncodeToString(doc) + "\n")
}

// plainDocs reads the plain documents, by name.
func plainDocs(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for name := range deliver {
		b, err := os.ReadFile(filepath.Join(threeNodes, name))
		if err != nil {
			t.Fatal(err)
		}
		out[name] = b
	}
	return out
}

// TestDeliveredFormsAreThePlainDocuments holds the committed delivered
// files to the plain documents, so the passing test below checks the files
// an operator would hand over, and the edits of the mistake tests reach
// them.
func TestDeliveredFormsAreThePlainDocuments(t *testing.T) {
	if *update {
		for name, doc := range plainDocs(t) {
			if err := os.WriteFile(filepath.Join(threeNodes, deliver[name].name), deliver[name].wrap(t, doc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for name, doc := range plainDocs(t) {
		file := deliver[name].name
		n := read(t, file, readFile(t, filepath.Join(threeNodes, file)))
		if !bytes.Equal(n.Delivery.Data, doc) {
			t.Errorf("%s does not deliver %s; run go test ./internal/cluster -update", file, name)
		}
	}
}
