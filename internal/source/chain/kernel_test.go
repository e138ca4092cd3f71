package chain

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"
)

// Quoting and last-wins through the whole chain: the earlier value names a
// file that would fail (a directory), the later one wins with a document
// holding spaces that only quotes keep together.
func TestChainCmdlineQuotedLastWins(t *testing.T) {
	for _, line := range []string{
		`corium.config=/etc dummy "corium.config=data:,role: worker" quiet`,
		`corium.config=/etc corium.config="data:,role: worker"`,
	} {
		res, _, err := find(t, fakeRoot(t, map[string]string{CmdlinePath: line, DefaultPath: docDefault}))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if res.Source != NameCmdline || string(res.Data) != "role: worker" {
			t.Errorf("%s: source %q data %q, want cmdline with %q", line, res.Source, res.Data, "role: worker")
		}
	}
}

func TestChainCmdlineForms(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte(docCmdline))
	for _, tc := range []struct {
		name, line, detail string
	}{
		{"absolute path", "corium.config=/run/corium/node.yaml", "corium.config=/run/corium/node.yaml"},
		{"absolute path pinned", "corium.config=/run/corium/node.yaml corium.config.sha256=" + strings.ToUpper(sha(docCmdline)), "(sha256 verified)"},
		{"data base64", "corium.config=data:;base64," + b64, "corium.config=data:... (" + itoa(len(docCmdline)) + " bytes inline)"},
		{"data base64 with media type", "corium.config=data:application/yaml;charset=utf-8;BASE64," + b64, "corium.config=data:..."},
		{"data base64 unpadded", "corium.config=data:;base64," + strings.TrimRight(base64.StdEncoding.EncodeToString([]byte(docCmdline+"x: 1\n")), "="), "bytes inline)"},
		{"data percent-encoded", "corium.config=data:," + pctEncode(docCmdline), "corium.config=data:..."},
		{"data percent-encoded pinned", "corium.config=data:text/plain," + pctEncode(docCmdline) + " corium.config.sha256=" + sha(docCmdline), "bytes inline, sha256 verified)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, log, err := find(t, fakeRoot(t, map[string]string{
				CmdlinePath:             tc.line + "\n",
				"/run/corium/node.yaml": docCmdline,
				DefaultPath:             docDefault,
			}))
			if err != nil {
				t.Fatalf("Find: %v", err)
			}
			if res.Source != NameCmdline || !strings.HasPrefix(string(res.Data), docCmdline) {
				t.Fatalf("source %q data %q, want the cmdline document", res.Source, res.Data)
			}
			a := attempt(t, res, NameCmdline)
			if !strings.Contains(a.Reason, tc.detail) {
				t.Errorf("used with %q, want %q", a.Reason, tc.detail)
			}
			// The document is the configuration itself; only its size may show.
			if strings.Contains(log, b64) || strings.Contains(log, "from-cmdline") || strings.Contains(a.Reason, "from-cmdline") {
				t.Errorf("the document leaked into the provenance:\n%s", log)
			}
		})
	}
}

// The PXE example's inline form decodes and matches its own pin.
func TestChainCmdlineExample(t *testing.T) {
	line, err := os.ReadFile("../../../examples/worker-pxe/cmdline-data.txt")
	if err != nil {
		t.Fatal(err)
	}
	res, _, err := find(t, fakeRoot(t, map[string]string{CmdlinePath: "BOOT_IMAGE=/vmlinuz " + string(line)}))
	if err != nil {
		t.Fatalf("Find: %v", err)
	}
	if res.Source != NameCmdline || !strings.Contains(string(res.Data), "role: worker") {
		t.Errorf("source %q data %q", res.Source, res.Data)
	}
}
