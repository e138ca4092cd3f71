package examples

import (
	"bytes"
	"context"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/source/sourcetest"
)

// TestCmdlineDataIsTheWorkerConfig reads cmdline-data.txt through the chain a
// PXE-booted node runs: the data: URL must decode, its pin must verify, and
// the document must be the worker's config.yaml, byte for byte after the
// comment stripping the example's README shows, and field for field.
func TestCmdlineDataIsTheWorkerConfig(t *testing.T) {
	line := strings.TrimSpace(string(readRepo(t, "examples/worker-pxe/cmdline-data.txt")))
	res, err := sourcetest.FindOnCmdline(t, sourcetest.BootLoaderArgs+line)
	if err != nil {
		t.Fatalf("the chain refuses cmdline-data.txt: %v", err)
	}
	if res.Source != chain.NameCmdline {
		t.Fatalf("source %q, want %q; tried %+v", res.Source, chain.NameCmdline, res.Tried)
	}
	used := res.Tried[len(res.Tried)-1]
	if used.Outcome != chain.Used || !strings.Contains(used.Reason, "sha256 verified") {
		t.Errorf("the command line was used without its pin verified: %+v", used)
	}

	config := readRepo(t, "examples/worker-pxe/config.yaml")
	if want := stripComments(config); !bytes.Equal(res.Data, want) {
		t.Errorf("cmdline-data.txt decodes to a document other than config.yaml without its comments; remake it with the README's commands\n--- decoded\n%s\n--- want\n%s", res.Data, want)
	}
	if got, want := load(t, res.Data), load(t, config); !reflect.DeepEqual(got, want) {
		t.Errorf("cmdline-data.txt and config.yaml configure different nodes:\ncmdline %+v\nconfig  %+v", got, want)
	}
}

// TestCmdlineDataPinIsChecked is the control: the same line with one digit of
// the pin changed must stop the chain, so the pin above was really compared.
func TestCmdlineDataPinIsChecked(t *testing.T) {
	line := strings.TrimSpace(string(readRepo(t, "examples/worker-pxe/cmdline-data.txt")))
	pin := regexp.MustCompile(`corium\.config\.sha256=([0-9a-f])`)
	m := pin.FindStringSubmatchIndex(line)
	if m == nil {
		t.Fatal("cmdline-data.txt carries no corium.config.sha256= pin")
	}
	flipped := "0"
	if line[m[2]:m[3]] == "0" {
		flipped = "1"
	}
	bad := line[:m[2]] + flipped + line[m[3]:]
	res, err := sourcetest.FindOnCmdline(t, sourcetest.BootLoaderArgs+bad)
	if err == nil {
		t.Fatalf("a wrong pin was accepted: source %q", res.Source)
	}
	if res.Source != "" || res.Tried[len(res.Tried)-1].Outcome != chain.Failed {
		t.Errorf("a wrong pin must fail the command line, not fall through: %+v", res.Tried)
	}
}

// TestCmdlineHTTPSIsAccepted checks the fetched form's parameters as the
// chain reads them, without a server: the context is cancelled before the
// chain runs, so the fetch gives up before its first attempt.
func TestCmdlineHTTPSIsAccepted(t *testing.T) {
	line := strings.TrimSpace(string(readRepo(t, "examples/worker-pxe/cmdline-https.txt")))
	if !strings.Contains(line, "corium.config=https://") {
		t.Fatalf("cmdline-https.txt does not use an https:// URL: %s", line)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := chain.Find(ctx, chain.Options{Root: sourcetest.CmdlineRoot(t, sourcetest.BootLoaderArgs+line), Logger: sourcetest.Quiet})
	if err == nil {
		t.Fatal("a fetch with a cancelled context succeeded")
	}
	// The wait and the scheme are checked before the fetch starts: reaching
	// the fetch means both were accepted.
	if !strings.Contains(err.Error(), "fetching https://provision.example.net/nodes/w1.yaml: stopped before attempt 1") {
		t.Errorf("the chain did not get as far as fetching cmdline-https.txt's URL: %v", err)
	}
}

// stripComments is the README's recipe for the inline form:
// grep -v '^#' | sed 's/ *#.*$//'.
func stripComments(doc []byte) []byte {
	trailing := regexp.MustCompile(` *#.*$`)
	var out bytes.Buffer
	for _, l := range strings.SplitAfter(string(doc), "\n") {
		if strings.HasPrefix(l, "#") {
			continue
		}
		nl := strings.HasSuffix(l, "\n")
		l = trailing.ReplaceAllString(strings.TrimSuffix(l, "\n"), "")
		out.WriteString(l)
		if nl {
			out.WriteString("\n")
		}
	}
	return out.Bytes()
}
