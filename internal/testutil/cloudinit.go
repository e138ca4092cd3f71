package testutil

import (
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// WriteFile is one entry of a cloud-config's write_files.
type WriteFile struct {
	Path        string `yaml:"path"`
	Content     string `yaml:"content"`
	Permissions string `yaml:"permissions"`
}

// WriteFileAt is the write_files entry of a cloud-config that writes path,
// as cloud-init would read it; false when data is no cloud-config (no
// "#cloud-config" first line) or has no such entry. It is how a test sees
// the corium block an example hands over as a file rather than under the
// corium key.
func WriteFileAt(t testing.TB, data []byte, path string) (WriteFile, bool) {
	t.Helper()
	if !strings.HasPrefix(string(data), "#cloud-config") {
		return WriteFile{}, false
	}
	var doc struct {
		WriteFiles []WriteFile `yaml:"write_files"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("not YAML: %v", err)
	}
	for _, f := range doc.WriteFiles {
		if f.Path == path {
			return f, true
		}
	}
	return WriteFile{}, false
}
