package cluster_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/cluster"
)

// ShippedCredentials is what the image's units deliver to the agent: every
// ImportCredential= glob, and the ID of every LoadCredential= and
// LoadCredentialEncrypted= of the agent's unit and its drop-ins, grepped
// from image/.
func TestShippedCredentialsAreTheImages(t *testing.T) {
	var found []string
	err := filepath.WalkDir("../../image/usr/lib/systemd/system", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.Contains(p, "corium-agent.service") {
			return err
		}
		for _, l := range strings.Split(string(readFile(t, p)), "\n") {
			key, value, ok := strings.Cut(strings.TrimSpace(l), "=")
			switch {
			case !ok:
			case key == "ImportCredential":
				found = append(found, value)
			case key == "LoadCredential" || key == "LoadCredentialEncrypted" || key == "SetCredential" || key == "SetCredentialEncrypted":
				id, _, _ := strings.Cut(value, ":")
				found = append(found, id)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(found)
	want := slices.Sorted(slices.Values(cluster.ShippedCredentials))
	if !slices.Equal(found, want) || len(found) == 0 {
		t.Errorf("the image's corium-agent.service delivers %q, cluster.ShippedCredentials says %q", found, want)
	}
}
