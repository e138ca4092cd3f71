package yamlfast

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// repoYAML lists every YAML file under the repository's testdata,
// examples and internal/**/testdata trees.
func repoYAML(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"../../testdata", "../../examples", "../../internal"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			if dir == "../../internal" && !strings.Contains(path, "/testdata/") {
				return nil
			}
			if ext := filepath.Ext(path); ext == ".yaml" || ext == ".yml" {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(files) < 100 {
		t.Fatalf("found only %d YAML files; is the test running from its package directory?", len(files))
	}
	return files
}

// TestRepositoryYAML: wherever the fast path accepts a file of the
// repository, valid or not, its tree is yaml.v3's.
func TestRepositoryYAML(t *testing.T) {
	accepted := map[string]bool{}
	for _, f := range repoYAML(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		accepted[f] = check(t, f, data)
	}
	n := 0
	for f, ok := range accepted {
		if ok {
			n++
		} else {
			t.Logf("left to yaml.v3: %s", f)
		}
	}
	t.Logf("accepted %d of %d files", n, len(accepted))
}

// TestAcceptsNodeConfigs: the configurations the fast path exists for
// must take it, or it would only ever measure yaml.v3.
func TestAcceptsNodeConfigs(t *testing.T) {
	var files []string
	for _, pattern := range []string{"../../testdata/valid/*.yaml", "../../examples/*/*.yaml", "../../examples/appliance/usr/share/corium/*.yaml"} {
		m, err := filepath.Glob(pattern)
		if err != nil || len(m) == 0 {
			t.Fatalf("%s: no configs found: %v", pattern, err)
		}
		files = append(files, m...)
	}
	// Outside the subset: anchors and aliases; a block scalar (|) holding
	// the embedded config as a file.
	outside := map[string]bool{"anchors-and-aliases.yaml": true, "user-data-write-files.yaml": true}
	for _, f := range files {
		if outside[filepath.Base(f)] {
			if _, ok := Parse(mustRead(t, f)); ok {
				t.Errorf("%s: accepted, but it uses a construct outside the subset", f)
			}
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !check(t, f, data) {
			t.Errorf("%s: left to yaml.v3, want the fast path", f)
		}
	}
	for _, n := range []int{10, 200, 2000} {
		if !check(t, "generated", peersConfig(n)) {
			t.Errorf("generated config with %d peers: left to yaml.v3", n)
		}
	}
}

func mustRead(t testing.TB, f string) []byte {
	t.Helper()
	data, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
