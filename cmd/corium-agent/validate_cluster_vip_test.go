package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// guardedTwoSites is the five-node set of internal/cluster/testdata
// (c1 and c2 share the virtual IP 192.0.2.100 at site A, c3 at site B has
// no ha block and the virtual IP as its endpoint) with every node's guard
// on, as the README recommends; edits change one document.
func guardedTwoSites(t *testing.T, edits map[string][2]string) []string {
	t.Helper()
	var files []string
	for _, name := range []string{"c1.yaml", "c2.yaml", "c3.yaml", "w1.yaml", "w2.yaml"} {
		doc := string(readTestFile(t, filepath.Join("../../internal/cluster/testdata/ha-five-nodes", name))) + "firewall:\n  clusterPorts: overlay\n"
		if e, ok := edits[name]; ok {
			if !strings.Contains(doc, e[0]) {
				t.Fatalf("%s no longer holds %q", name, e[0])
			}
			doc = strings.Replace(doc, e[0], e[1], 1)
		}
		files = append(files, writeConfig(t, name, doc))
	}
	return files
}

// A controller at another site reaches the API at the virtual IP its
// site A peers share, without an ha block of its own: the documented
// design passes --strict --cluster with no warning. An endpoint no
// controller of the set holds keeps the warning, and so does c3 alone,
// whose document cannot show whose address its endpoint is.
func TestValidateClusterRemoteSiteControllerAtTheVIP(t *testing.T) {
	t.Run("the documented design", func(t *testing.T) {
		code, out, errOut := runCLI(t, append([]string{"validate", "--strict", "--cluster"}, guardedTwoSites(t, nil)...)...)
		if code != exitOK || strings.Contains(out, "warning") || !strings.HasSuffix(out, "cluster of 5 files: valid\n") {
			t.Errorf("exit %d\n%s%s", code, out, errOut)
		}
	})
	t.Run("an endpoint nobody holds", func(t *testing.T) {
		files := guardedTwoSites(t, map[string][2]string{"c3.yaml": {"endpoint: 192.0.2.100", "endpoint: 192.0.2.200"}})
		code, out, _ := runCLI(t, append([]string{"validate", "--strict", "--cluster"}, files...)...)
		if code != exitFailed || !strings.Contains(out, files[2]+":8:13: warning: cluster.endpoint: 192.0.2.200 is not on the overlay") {
			t.Errorf("exit %d\n%s", code, out)
		}
	})
	t.Run("a controller on the VIP's network without ha", func(t *testing.T) {
		files := guardedTwoSites(t, map[string][2]string{"c1.yaml": {"endpoint: 198.51.100.13:51820", "endpoint: 192.0.2.13:51820"}})
		code, out, _ := runCLI(t, append([]string{"validate", "--strict", "--cluster"}, files...)...)
		if code != exitFailed || !strings.Contains(out, "is missing on this controller, which is on the virtual IP's network 192.0.2.0/24") {
			t.Errorf("exit %d\n%s", code, out)
		}
	})
	t.Run("c3 alone", func(t *testing.T) {
		files := guardedTwoSites(t, nil)
		code, out, _ := runCLI(t, "validate", "--strict", files[2])
		if code != exitFailed || !strings.Contains(out, "warning: cluster.endpoint: 192.0.2.100 is not on the overlay") {
			t.Errorf("exit %d\n%s", code, out)
		}
	})
}
