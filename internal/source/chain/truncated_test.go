package chain

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
)

// atLimit pads a boot loader argument in front of params so that the line
// is exactly n bytes, as /proc/cmdline shows it (newline appended).
func atLimit(t *testing.T, n int, params ...string) string {
	t.Helper()
	tail := " " + strings.Join(params, " ")
	pad := n - len(tail) - len("BOOT_IMAGE=")
	if pad < 1 {
		t.Fatalf("the parameters alone take %d bytes", len(tail))
	}
	return "BOOT_IMAGE=" + strings.Repeat("v", pad) + tail
}

// cutAt is line as the kernel keeps it: source.MaxCmdline bytes at most.
func cutAt(line string) string { return line[:min(len(line), source.MaxCmdline)] }

// workerDoc is a document whose every prefix cut at a line end is still a
// document: cut, it reads as a worker with fields missing.
func workerDoc() string {
	var b strings.Builder
	b.WriteString("role: worker\njoin:\n  tokenFrom: {file: /run/token}\nnode:\n  labels:\n")
	for i := 0; b.Len() < 1400; i++ {
		b.WriteString("    zone" + itoa(i) + ": a\n")
	}
	return b.String()
}

func dataParam(doc string) string {
	return "corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(doc))
}

// A line at the kernel's limit whose corium parameter runs to its end was
// cut there: the chain fails saying so, and never reads what is left as a
// document, a pin or a path.
func TestCmdlineCutAtTheLimitIsTruncated(t *testing.T) {
	doc := workerDoc()
	full := source.InlineParams([]byte(doc)) // the pin first, as the cmdline command writes it
	// A cut that leaves base64 that decodes: a whole number of quads.
	b64 := base64.StdEncoding.EncodeToString([]byte(doc))
	quads := "corium.config=data:;base64," + b64[:len(b64)-len(b64)%4-400]
	if data, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(quads, "corium.config=data:;base64,")); err != nil || !strings.HasPrefix(doc, string(data)) || len(data) == len(doc) {
		t.Fatalf("the cut base64 must decode to a part of the document: %v", err)
	}
	for _, tc := range []struct {
		name, line, want string
	}{
		{"unpinned, cut mid-document", cutAt(atLimit(t, source.MaxCmdline+300, dataParam(doc))), "cannot be told from a cut one"},
		{"unpinned, cut where the base64 still decodes", atLimit(t, source.MaxCmdline, quads), "cannot be told from a cut one"},
		{"pinned, the document cut", cutAt(atLimit(t, source.MaxCmdline+300, full...)), "the line was cut there"},
		{"the pin cut", cutAt(atLimit(t, source.MaxCmdline+30, full[1], full[0])), "corium.config.sha256= runs to the end"},
		{"the wait cut", cutAt(atLimit(t, source.MaxCmdline+1, full[0], full[1], "corium.config.wait=10m")), "corium.config.wait= runs to the end"},
		{"a path cut", atLimit(t, source.MaxCmdline, "corium.config=/etc/corium/node-config-that-is-lon"), "corium.config= runs to the end"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.line) != source.MaxCmdline {
				t.Fatalf("the line is %d bytes, want %d", len(tc.line), source.MaxCmdline)
			}
			res, _, err := find(t, fakeRoot(t, map[string]string{CmdlinePath: tc.line + "\n", DefaultPath: docDefault}))
			if err == nil {
				t.Fatalf("a cut line was used: source %s, data %.60q", res.Source, res.Data)
			}
			if !strings.Contains(err.Error(), "2047-byte kernel command line") || !strings.Contains(err.Error(), tc.want) ||
				!strings.Contains(err.Error(), "move the document to a file or URL") {
				t.Errorf("error %q does not say the line was cut (%q)", err, tc.want)
			}
			if last := res.Tried[len(res.Tried)-1]; last.Source != NameCmdline || last.Outcome != Failed {
				t.Errorf("the chain did not stop at the command line: %+v", res.Tried)
			}
		})
	}
}

// The controls: a pinned document that fills the line to the byte is whole,
// and lines that are shorter, longer, or end between parameters are not
// taken for cut ones.
func TestCmdlineAtTheLimitButWhole(t *testing.T) {
	doc := workerDoc()
	pinned := atLimit(t, source.MaxCmdline, source.InlineParams([]byte(doc))...)
	short := atLimit(t, source.MaxCmdline-1, dataParam(doc))
	endsInSpace := atLimit(t, source.MaxCmdline-1, dataParam(doc)) + " "
	for name, line := range map[string]string{"pinned, to the byte": pinned, "a byte short": short, "ending in a space": endsInSpace} {
		res, _, err := find(t, fakeRoot(t, map[string]string{CmdlinePath: line + "\n"}))
		if err != nil || res.Source != NameCmdline || string(res.Data) != doc {
			t.Errorf("%s: source %q, err %v", name, res.Source, err)
		}
	}
	// Someone else's parameter cut at the limit is not the chain's business.
	other := atLimit(t, source.MaxCmdline, source.InlineParams([]byte(doc))[0], dataParam(doc), "quiet")
	if len(other) > source.MaxCmdline {
		other = atLimit(t, source.MaxCmdline, source.InlineParams([]byte("role: single\n"))[0], dataParam("role: single\n"), "console=ttyS0")
	}
	if _, _, err := find(t, fakeRoot(t, map[string]string{CmdlinePath: other + "\n"})); err != nil && strings.Contains(err.Error(), "cut") {
		t.Errorf("a cut console= is reported as a cut configuration: %v", err)
	}
}
