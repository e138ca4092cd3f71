package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/source/sourcetest"
	"github.com/corium/corium-agent/internal/testutil"
)

// pxeDoc is a worker whose secrets come from systemd credentials: fit for
// the kernel command line.
const pxeDoc = `role: worker
join:
  tokenFrom: {credential: corium.join}
wireguard:
  - name: wg0
    address: 10.10.0.5/24
    nodeAddress: true
    privateKeyFrom: {credential: corium.wg0}
    peers:
      - publicKey: lE+n+RtAGM4fk6zSnJt+lVWRo7DhbtYTjuU5U5tQ4Ho=
        endpoint: 192.0.2.1:51820
        allowedIPs: [10.10.0.1/32]
`

// pxeDocWithToken is pxeDoc with its join token inline: a secret every
// user of the node could read on the command line.
func pxeDocWithToken(token string) string {
	return strings.Replace(pxeDoc, "tokenFrom: {credential: corium.join}", "token: "+token, 1)
}

// What cmdline prints boots: the node's own reader finds the pin first,
// verifies it and reads back the very document; the same line cut at the
// kernel's limit is refused as cut.
func TestCmdlineOutputBootsThroughTheReader(t *testing.T) {
	file := writeConfig(t, "pxe.yaml", pxeDoc)
	code, out, errOut := runCLI(t, "cmdline", file)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	line := strings.TrimSuffix(out, "\n")
	params := strings.Fields(line)
	if len(params) != 2 || !strings.HasPrefix(params[0], "corium.config.sha256=") || !strings.HasPrefix(params[1], "corium.config=data:;base64,") {
		t.Fatalf("want the pin, then the data: URL: %q", line)
	}
	res, err := sourcetest.FindOnCmdline(t, sourcetest.BootLoaderArgs+line)
	if err != nil || res.Source != source.NameCmdline || string(res.Data) != pxeDoc {
		t.Fatalf("the reader does not read the document back: %v, source %q, data %q", err, res.Source, res.Data)
	}
	if used := res.Tried[len(res.Tried)-1]; !strings.Contains(used.Reason, "sha256 verified") {
		t.Errorf("the pin was not checked: %+v", used)
	}

	// Longer than the kernel keeps, by 100 bytes of the document: it keeps
	// the start.
	long := sourcetest.BootLoaderArgs + "console=" + strings.Repeat("x", source.MaxCmdline-len(sourcetest.BootLoaderArgs)-len("console=")-len(line)+100) + " " + line
	cut := long[:source.MaxCmdline]
	if len(cut) != source.MaxCmdline || !strings.Contains(cut, "corium.config=data:") {
		t.Fatalf("the cut line is %d bytes", len(cut))
	}
	if _, err := sourcetest.FindOnCmdline(t, cut); err == nil || !strings.Contains(err.Error(), "the line was cut there") {
		t.Errorf("a cut copy of the line: %v, want it refused as cut", err)
	}
}

// An inline secret is refused (every user of the node reads /proc/cmdline)
// unless the operator says otherwise; either way the check's warning says
// which field, and nothing prints the secret but the line asked for.
func TestCmdlineRefusesInlineSecrets(t *testing.T) {
	const token = "K10inlinetokenvalue4711"
	file := writeConfig(t, "pxe.yaml", pxeDocWithToken(token))
	code, out, errOut := runCLI(t, "cmdline", file)
	if code != exitFailed || out != "" || !strings.Contains(errOut, "refusing") || !strings.Contains(errOut, "join.token") ||
		!strings.Contains(errOut, "--allow-inline-secrets") || strings.Contains(errOut, token) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, errOut = runCLI(t, "cmdline", "--allow-inline-secrets", file)
	if code != exitOK || !strings.HasPrefix(out, "corium.config.sha256=") || !strings.Contains(errOut, "warning: join.token: is an inline secret on the kernel command line") || strings.Contains(errOut, token) {
		t.Errorf("--allow-inline-secrets: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// The document is validated first: an invalid one gives its findings, not
// a line.
func TestCmdlineValidatesFirst(t *testing.T) {
	for name, doc := range map[string]string{
		"invalid":      "role: worker\nclustr: {}\n",
		"syntax error": "role: worker\njoin:\n  token: [x\n",
		"no block":     "#cloud-config\npackages: [vim]\n",
	} {
		code, out, errOut := runCLI(t, "cmdline", writeConfig(t, "bad.yaml", doc))
		if code != exitFailed || out != "" || !strings.Contains(errOut, "bad.yaml:") || !strings.Contains(errOut, "is not valid") {
			t.Errorf("%s: exit %d, stdout %q, stderr %q", name, code, out, errOut)
		}
	}
}

// labelled is pxeDoc with n labels, to grow the line.
func labelled(n int) string {
	var b strings.Builder
	b.WriteString(pxeDoc + "node:\n  labels:\n")
	for i := range n {
		b.WriteString("    example.com/label-" + strconv.Itoa(i) + ": value\n")
	}
	return b.String()
}

// A line that leaves the rest of the command line little room is printed
// with a warning saying how much is left; one the kernel cannot keep at all
// is refused.
func TestCmdlineWarnsNearTheLimit(t *testing.T) {
	code, out, errOut := runCLI(t, "cmdline", writeConfig(t, "big.yaml", labelled(24)))
	size := len(strings.TrimSuffix(out, "\n"))
	left := source.MaxCmdline - size - 1
	if code != exitOK || left >= 512 || left < 0 || !strings.Contains(errOut, "warning: the kernel command line parameters that carry this document take "+strconv.Itoa(size)+" of the 2047 bytes") ||
		!strings.Contains(errOut, "leaving "+strconv.Itoa(left)+" for the rest") {
		t.Errorf("exit %d, %d bytes (%d left), stderr %q", code, size, left, errOut)
	}
	if code, _, errOut := runCLI(t, "cmdline", writeConfig(t, "small.yaml", pxeDoc)); code != exitOK || errOut != "" {
		t.Errorf("a small document warns: %q", errOut)
	}
	code, out, errOut = runCLI(t, "cmdline", writeConfig(t, "huge.yaml", labelled(40)))
	if code != exitFailed || out != "" || !strings.Contains(errOut, "the kernel keeps 2047 of the whole line") {
		t.Errorf("too long: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}

// validate --for cmdline finds what cmdline would say of the line's size:
// the same warning near the limit (fatal with --strict), an error past it.
func TestValidateForCmdlineChecksTheLineFits(t *testing.T) {
	near, huge, small := writeConfig(t, "big.yaml", labelled(24)), writeConfig(t, "huge.yaml", labelled(40)), writeConfig(t, "small.yaml", pxeDoc)
	if code, out, _ := runCLI(t, "validate", "--for", "cmdline", near); code != exitOK || !strings.Contains(out, "big.yaml: warning: the kernel command line parameters that carry this document take ") {
		t.Errorf("near the limit: exit %d\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "validate", "--for", "cmdline", "--strict", near); code != exitFailed {
		t.Errorf("near the limit, --strict: exit %d, want %d", code, exitFailed)
	}
	if code, out, _ := runCLI(t, "validate", "--for", "cmdline", huge); code != exitFailed || !strings.Contains(out, "huge.yaml: the kernel command line parameters that carry this document take ") {
		t.Errorf("past the limit: exit %d\n%s", code, out)
	}
	// Without --for cmdline a document's size is nobody's business.
	if code, out, _ := runCLI(t, "validate", huge); code != exitOK || strings.Contains(out, "command line") {
		t.Errorf("past the limit, not for cmdline: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "validate", "--for", "cmdline", small); code != exitOK || strings.Contains(out, "command line") {
		t.Errorf("a small document: exit %d\n%s", code, out)
	}
}

// cmdline - reads standard input, and takes exactly one file.
func TestCmdlineStdinAndUsage(t *testing.T) {
	withStdin(t, pxeDoc)
	code, fromStdin, _ := runCLI(t, "cmdline", "-")
	_, fromFile, _ := runCLI(t, "cmdline", writeConfig(t, "pxe.yaml", pxeDoc))
	if code != exitOK || fromStdin != fromFile {
		t.Errorf("stdin: exit %d %q, want %q", code, fromStdin, fromFile)
	}
	for _, args := range [][]string{{"cmdline"}, {"cmdline", "a.yaml", "b.yaml"}} {
		if code, _, errOut := runCLI(t, args...); code != exitUsage || !strings.Contains(errOut, "usage: corium-agent cmdline [flags] FILE") {
			t.Errorf("%v: exit %d %q", args, code, errOut)
		}
	}
	if code, _, errOut := runCLI(t, "cmdline", filepath.Join(t.TempDir(), "missing.yaml")); code != exitUsage || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("missing file: exit %d %q", code, errOut)
	}
}

// grubQuote against the rules of GRUB's script language: words without a
// special character stay as they are, others are single-quoted, a single
// quote inside closes, escapes and reopens.
func TestGrubQuote(t *testing.T) {
	for in, want := range map[string]string{
		"corium.config.sha256=ab12":       "corium.config.sha256=ab12",
		"corium.config=data:;base64,A+/=": "'corium.config=data:;base64,A+/='",
		"a$b":                             "'a$b'",
		"it's":                            `'it'\''s'`,
		"#x":                              "'#x'",
		"":                                "''",
	} {
		if got := grubQuote(in); got != want {
			t.Errorf("grubQuote(%q) = %q, want %q", in, got, want)
		}
	}
}

// grubWords has GRUB itself (grub-emu) read words as it reads a linux line,
// and returns the words it hands on.
func grubWords(t *testing.T, words string) []string {
	t.Helper()
	testutil.RequireCommands(t, "grub-emu", "script")
	dir := t.TempDir()
	cfg := "echo BEGIN\nfor w in " + words + "; do echo \"[$w]\"; done\necho END\nreboot\n"
	if err := os.WriteFile(filepath.Join(dir, "grub.cfg"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// grub-emu wants a terminal; script gives it one.
	out, err := exec.CommandContext(ctx, "script", "-qec", "grub-emu -r host -d "+dir, "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("grub-emu: %v\n%s", err, out)
	}
	text := strings.ReplaceAll(string(out), "\r", "")
	begin, end := strings.Index(text, "BEGIN\n"), strings.LastIndex(text, "\nEND")
	if begin < 0 || end < begin {
		t.Fatalf("grub-emu printed no words:\n%s", text)
	}
	// GRUB's console wraps at its width; the brackets mark the words.
	joined := strings.ReplaceAll(text[begin+len("BEGIN\n"):end], "\n", "")
	var got []string
	for _, w := range strings.Split(strings.TrimSuffix(strings.TrimPrefix(joined, "["), "]"), "][") {
		got = append(got, w)
	}
	return got
}

// --grub quotes the line so that GRUB, reading it, hands the kernel the
// parameters the reader verified above; the control shows GRUB splitting
// the unquoted line at its semicolon.
func TestCmdlineGrubQuotingThroughGRUB(t *testing.T) {
	file := writeConfig(t, "pxe.yaml", pxeDoc)
	_, plain, _ := runCLI(t, "cmdline", file)
	code, quoted, _ := runCLI(t, "cmdline", "--grub", file)
	if code != exitOK || !strings.Contains(quoted, "'corium.config=data:;base64,") {
		t.Fatalf("exit %d: %q", code, quoted)
	}
	want := strings.Fields(plain)
	got := grubWords(t, strings.TrimSpace(quoted)+` 'a$b{c}|d&e<f>g*h?[i]' '#j' 'it'\''s'`)
	if len(got) != 5 || got[0] != want[0] || got[1] != want[1] || got[2] != "a$b{c}|d&e<f>g*h?[i]" || got[3] != "#j" || got[4] != "it's" {
		t.Errorf("GRUB read %q, want %q and the special characters as they are", got, want)
	}
	if got := grubWords(t, strings.TrimSpace(plain)); len(got) == 2 && got[1] == want[1] {
		t.Errorf("unquoted, GRUB kept the data: URL whole; the test cannot tell quoting from none")
	}
}
