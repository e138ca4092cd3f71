package chain

import (
	"os"
	"path/filepath"
	"testing"
)

// cloud-init writes /var/lib/cloud/instance as an absolute symlink to
// instances/<id>; under --root the chain must follow it inside the tree.
func TestCloudInitInstanceLinkUnderRoot(t *testing.T) {
	root := fakeRoot(t, map[string]string{
		"/var/lib/cloud/instances/i-0abc/cloud-config.txt": docCloudInit,
	})
	if err := os.Symlink("/var/lib/cloud/instances/i-0abc", filepath.Join(root.Dir(), "var/lib/cloud/instance")); err != nil {
		t.Fatal(err)
	}
	res, log, err := find(t, root)
	if err != nil || res.Source != NameCloudInit || string(res.Data) != docCloudInit {
		t.Fatalf("Find = %q, %v; want cloud-init's document through the instance link\n%s", res.Source, err, log)
	}
}
