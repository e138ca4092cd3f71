package examples

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/source"
)

// wayIn lists, for each way a node gets its configuration and each common
// shape, the example that shows it; the README points at these paths.
var wayIn = map[string]string{
	"cloud-init user-data, corium: key":         "examples/single-cloud-init/user-data.yaml",
	"cloud-init user-data, write_files":         "examples/single-cloud-init/user-data-write-files.yaml",
	"three controllers over a two-site overlay": "examples/ha-overlay-two-sites/c1.yaml",
	"keepalived virtual IP on one LAN":          "examples/ha-overlay-two-sites/ha-vip-one-site.yaml",
	"kernel command line, data: URL":            "examples/worker-pxe/cmdline-data.txt",
	"kernel command line, https URL":            "examples/worker-pxe/cmdline-https.txt",
	"bare metal /etc/corium/config.yaml":        "examples/bare-metal/config.yaml",
	"image default in a derived image":          "examples/appliance/usr/share/corium/config.yaml",
	"secrets from file, URL and credential":     "examples/secrets/config.yaml",
}

func TestEveryWayInHasAnExample(t *testing.T) {
	for what, rel := range wayIn {
		if _, err := os.Stat(filepath.Join(repo, rel)); err != nil {
			t.Errorf("%s: %v", what, err)
		}
	}
}

// TestExamplesValidate runs `corium-agent validate --strict` on every example,
// one file at a time, so each failure names its file. A block delivered by
// cloud-init's write_files is validated as the file it becomes.
func TestExamplesValidate(t *testing.T) {
	files := exampleConfigs(t)
	if len(files) < len(wayIn)-2 {
		t.Fatalf("found only %d example configs: %v", len(files), files)
	}
	for _, rel := range files {
		t.Run(rel, func(t *testing.T) {
			target := rel
			if content, ok := writtenConfig(t, readRepo(t, rel)); ok {
				target = filepath.Join(t.TempDir(), "config.yaml")
				if err := os.WriteFile(target, content, 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if want, ok := expectedWarnings[rel]; ok {
				// Valid, with exactly the warnings it is meant to show, which
				// --strict makes fatal.
				out, code := runAgent(t, "validate", target)
				if got := warningLines(out); code != 0 || !strings.Contains(out, target+": valid") || !reflect.DeepEqual(got, want) {
					t.Errorf("corium-agent validate %s: exit %d, warnings %q, want exit 0 and %q\n%s", target, code, got, want, out)
				}
				if _, code := runAgent(t, "validate", "--strict", target); code != 1 {
					t.Errorf("corium-agent validate --strict %s: exit %d, want 1 for its warnings", target, code)
				}
				return
			}
			out, code := runAgent(t, "validate", "--strict", target)
			if code != 0 || !strings.Contains(out, target+": valid") {
				t.Errorf("corium-agent validate --strict %s: exit %d\n%s", target, code, out)
			}
		})
	}
}

// expectedWarnings are the examples that show a warning on purpose: none.
// The demo's endpoint is its own control-plane virtual IP on the underlay,
// the HA design the docs recommend, which --strict passes.
var expectedWarnings = map[string][]string{}

// warningLines are the messages of the warnings validate printed, without
// the file and position.
func warningLines(out string) []string {
	var got []string
	for _, line := range strings.Split(out, "\n") {
		if _, msg, ok := strings.Cut(line, ": warning: "); ok {
			got = append(got, msg)
		}
	}
	return got
}

// TestValidateCatchesABrokenExample is the control for the test above: the
// same harness on an example with one typo must fail and name the field.
func TestValidateCatchesABrokenExample(t *testing.T) {
	src := string(readRepo(t, "examples/worker-pxe/config.yaml"))
	broken := strings.Replace(src, "    nodeAddress: true", "    nodeAdress: true", 1)
	if broken == src {
		t.Fatal("the example no longer has the line this control edits")
	}
	file := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(file, []byte(broken), 0o600); err != nil {
		t.Fatal(err)
	}
	out, code := runAgent(t, "validate", "--strict", file)
	if code != 1 || !strings.Contains(out, "wireguard[0].nodeAdress") {
		t.Errorf("a typo in an example: exit %d, want 1 naming wireguard[0].nodeAdress:\n%s", code, out)
	}
}

// TestWriteFilesCarriesTheSameBlock holds the two cloud-init forms of the
// single node to one configuration, so validating one validates both.
func TestWriteFilesCarriesTheSameBlock(t *testing.T) {
	embedded := load(t, readRepo(t, "examples/single-cloud-init/user-data.yaml"))
	content, ok := writtenConfig(t, readRepo(t, "examples/single-cloud-init/user-data-write-files.yaml"))
	if !ok {
		t.Fatal("user-data-write-files.yaml writes no /etc/corium/config.yaml")
	}
	if written := load(t, content); !reflect.DeepEqual(embedded, written) {
		t.Errorf("the two cloud-init forms differ:\ncorium: key  %+v\nwrite_files  %+v", embedded, written)
	}
}

// writtenConfig is the content a cloud-config's write_files places at
// /etc/corium/config.yaml, if it has such an entry.
func writtenConfig(t *testing.T, data []byte) ([]byte, bool) {
	t.Helper()
	if !schema.IsCloudConfig(data) {
		return nil, false
	}
	files, err := source.WriteFiles(data)
	if err != nil {
		t.Fatalf("reading write_files: %v", err)
	}
	for _, f := range files {
		if f.Path != source.FilePath {
			continue
		}
		if f.Permissions != "0600" {
			t.Errorf("write_files %s: permissions %q; the block may carry join material, use \"0600\"", f.Path, f.Permissions)
		}
		return f.Content, true
	}
	return nil, false
}

func load(t *testing.T, data []byte) *schema.Config {
	t.Helper()
	cfg, _, err := schema.Load(data)
	if err != nil {
		t.Fatalf("loading: %v", err)
	}
	return cfg
}
