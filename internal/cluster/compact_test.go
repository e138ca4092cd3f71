package cluster_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
)

// A set whose nodes dropped their trees (Compact) is found to hold the
// same findings, at the same lines, as the set read afresh: in a plain
// file, a cloud-config's write_files and a kernel command line.
func TestCompactNodesCheckTheSame(t *testing.T) {
	edits := []edit{
		{"a1.yaml", "publicKey: U4KrOLxW3bQOQz231+8goOlNFyDzPDki7OP3ww/HH0o= # a2", "publicKey: VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE= # a2"},
		{"a1.yaml", "publicKey: VhllM4t61Ek1CNOC9t+Ri/EyCil5859QS9+Lq2bKwmE= # w1", "publicKey: U4KrOLxW3bQOQz231+8goOlNFyDzPDki7OP3ww/HH0o= # w1"},
		{"a2.yaml", "listenPort: 51820", "listenPort: 51821"},
		{"w1.yaml", "endpoint: 192.0.2.12:51820", "endpoint: 192.0.2.12:51999"},
		{"w1.yaml", "allowedIPs: [10.30.0.2/32]", "allowedIPs: [10.30.0.2/32]\n      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=\n        allowedIPs: [10.40.0.0/24]"},
	}
	docs := threeNodeSet.plainDocs(t)
	for _, e := range edits {
		if !strings.Contains(string(docs[e.file]), e.old) {
			t.Fatalf("%s no longer holds %q", e.file, e.old)
		}
		docs[e.file] = []byte(strings.Replace(string(docs[e.file]), e.old, e.new, 1))
	}
	readSet := func(compact bool) []cluster.Node {
		var nodes []cluster.Node
		for _, name := range threeNodeSet.docs {
			d := threeNodeSet.deliver[name]
			n := read(t, d.name, d.wrap(t, docs[name]))
			if compact {
				n.Compact()
			}
			nodes = append(nodes, n)
		}
		return nodes
	}
	fresh, compacted := cluster.Check(readSet(false)), cluster.Check(readSet(true))
	files := map[string]bool{}
	for _, f := range fresh {
		if f.Line > 0 {
			files[f.File] = true
		}
	}
	if len(files) < 3 {
		t.Fatalf("the edits must place findings in every file, placed in %v:\n%s", files, lines(fresh))
	}
	if !reflect.DeepEqual(fresh, compacted) {
		t.Errorf("compacted nodes check otherwise:\n%s\nread afresh:\n%s", placed(compacted), placed(fresh))
	}
}

func placed(fs cluster.Findings) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(fmt.Sprintf("%s:%d:%d %s", f.File, f.Line, f.Col, f) + "\n")
	}
	return b.String()
}
