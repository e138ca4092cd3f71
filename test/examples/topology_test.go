package examples

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const natSite = "examples/cloud-nat-site"

// TestNATSiteExample: the cloud workers behind a 1:1 NAT pass --strict with
// the set's topology, and warn without it, as the README shows; with it,
// c1 dialling w1 at its private address, which only the cloud reaches, is
// an error at c1's entry.
func TestNATSiteExample(t *testing.T) {
	topo := filepath.Join(natSite, "cloud.topology")
	out, code := runAgent(t, "validate", "--strict", "--cluster", "--topology", topo, natSite)
	if code != 0 || !strings.Contains(out, "cluster of 3 files: valid") {
		t.Errorf("with the topology: exit %d\n%s", code, out)
	}
	out, code = runAgent(t, "validate", "--strict", "--cluster", natSite)
	if code != 1 || !strings.Contains(out, natSite+"/w1.yaml:13:5: warning: wireguard[0]: is dialled at 2 endpoints") {
		t.Errorf("without the topology: exit %d\n%s", code, out)
	}
	// docs/cluster.md shows this file as it is.
	doc := string(readRepo(t, "docs/cluster.md"))
	_, shown, ok := strings.Cut(doc, "```yaml\n# cloud.topology\n")
	shown, _, _ = strings.Cut(shown, "```")
	if !ok || !strings.HasSuffix(string(readRepo(t, topo)), shown) {
		t.Errorf("docs/cluster.md shows another %s:\n%s", topo, shown)
	}
	c1 := string(readRepo(t, filepath.Join(natSite, "c1.yaml")))
	wrong := strings.Replace(c1, "endpoint: 203.0.113.21:51820", "endpoint: 10.0.1.21:51820", 1)
	if wrong == c1 {
		t.Fatal("c1.yaml no longer dials w1 where this control changes it")
	}
	dir := t.TempDir()
	for name, data := range map[string]string{"c1.yaml": wrong, "w1.yaml": string(readRepo(t, filepath.Join(natSite, "w1.yaml"))), "w2.yaml": string(readRepo(t, filepath.Join(natSite, "w2.yaml")))} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, code = runAgent(t, "validate", "--cluster", "--topology", topo, dir)
	if code != 1 || !strings.Contains(out, filepath.Join(dir, "c1.yaml")+":18:19: wireguard[0].peers[0].endpoint: dials w1") {
		t.Errorf("c1 dials w1 at its private address: exit %d\n%s", code, out)
	}
}
