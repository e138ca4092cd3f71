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
	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/source/sourcetest"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
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
	if err != nil || res.Source != chain.NameCmdline || string(res.Data) != pxeDoc {
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
	token := fixture.JoinToken("fake00.inlinecmdline000")
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

// pxeDocWithSecretURLs is pxeDoc taking its secrets from URLs that carry
// credentials: a presigned query and a password in the userinfo.
func pxeDocWithSecretURLs(sig, pass string) string {
	doc := strings.Replace(pxeDoc, "tokenFrom: {credential: corium.join}", `tokenFrom: {url: "https://s3.example.net/join?X-Amz-Signature=`+sig+`&X-Amz-Expires=600"}`, 1)
	return strings.Replace(doc, "privateKeyFrom: {credential: corium.wg0}", `privateKeyFrom: {url: "https://ops:`+pass+`@keys.example.net/wg0"}`, 1)
}

// A secret's URL carrying credentials is refused as an inline secret is:
// on the line every user of the node reads them. Each field is named by its
// url's path; neither the query nor the userinfo is quoted, on any stream.
// validate --for cmdline warns of the same (fatal with --strict).
func TestCmdlineRefusesCredentialsInSecretURLs(t *testing.T) {
	const sig, pass = "5f1b9c0d7e2a4b6c8d0e1f2a3b4c5d6e", "hunter2pass4711"
	file := writeConfig(t, "pxe.yaml", pxeDocWithSecretURLs(sig, pass))
	quotes := func(text string) bool {
		return strings.Contains(text, sig) || strings.Contains(text, pass) || strings.Contains(text, "ops:") || strings.Contains(text, "X-Amz")
	}
	code, out, errOut := runCLI(t, "cmdline", file)
	if code != exitFailed || out != "" || !strings.Contains(errOut, "refusing") ||
		!strings.Contains(errOut, "join.tokenFrom.url, wireguard[0].privateKeyFrom.url") || quotes(errOut) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, w := range []string{"warning: join.tokenFrom.url: carries credentials (its query string)", "warning: wireguard[0].privateKeyFrom.url: carries credentials (its userinfo)"} {
		if !strings.Contains(errOut, w) {
			t.Errorf("stderr lacks %q:\n%s", w, errOut)
		}
	}
	code, out, errOut = runCLI(t, "cmdline", "--grub", file)
	if code != exitFailed || out != "" || quotes(errOut) {
		t.Errorf("--grub: exit %d, stdout %q, stderr %q", code, out, errOut)
	}

	code, out, _ = runCLI(t, "validate", "--for", "cmdline", file)
	if code != exitOK || !strings.Contains(out, "pxe.yaml:3:") || !strings.Contains(out, "warning: join.tokenFrom.url: carries credentials") || quotes(out) {
		t.Errorf("validate --for cmdline: exit %d\n%s", code, out)
	}
	if code, out, _ = runCLI(t, "validate", "--for", "cmdline", "--strict", file); code != exitFailed || quotes(out) {
		t.Errorf("validate --for cmdline --strict: exit %d\n%s", code, out)
	}
	if code, out, _ = runCLI(t, "validate", file); code != exitOK || strings.Contains(out, "credentials") {
		t.Errorf("validate, not for cmdline: exit %d\n%s", code, out)
	}

	code, out, errOut = runCLI(t, "cmdline", "--allow-inline-secrets", file)
	if code != exitOK || !strings.HasPrefix(out, "corium.config.sha256=") || !strings.Contains(errOut, "warning: join.tokenFrom.url") || quotes(errOut) {
		t.Errorf("--allow-inline-secrets: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, errOut := runCLI(t, "cmdline", writeConfig(t, "clean.yaml", strings.Replace(pxeDoc, "{credential: corium.join}", "{url: \"https://s3.example.net/join\", authFile: /run/bearer}", 1))); code != exitOK || errOut != "" {
		t.Errorf("a URL without credentials: exit %d, stderr %q", code, errOut)
	}
}

// cloudConfig holds pxeDoc's block between cloud-init keys that carry
// passwords and keys of their own, and a comment that names one.
func cloudConfig(block string) string {
	return "#cloud-config\n# root's password is chpass-comment-4711\nchpasswd:\n  expire: false\n  users:\n    - {name: root, password: chpass-secret-4711, type: text}\n" +
		"corium:\n  " + strings.ReplaceAll(strings.TrimSuffix(block, "\n"), "\n", "\n  ") + "\n" +
		"users:\n  - {name: ops, plain_text_passwd: users-secret-4711}\nwrite_files:\n  - {path: /etc/motd, content: files-secret-4711}\n"
}

// decodedLine is the document a printed line carries.
func decodedLine(t *testing.T, line string) string {
	t.Helper()
	res, err := sourcetest.FindOnCmdline(t, sourcetest.BootLoaderArgs+strings.TrimSuffix(line, "\n"))
	if err != nil || res.Source != chain.NameCmdline {
		t.Fatalf("the reader does not read the line: %v", err)
	}
	return string(res.Data)
}

// Out of a cloud-config the line carries the corium block alone, as a
// standalone document: no chpasswd password, no other key, no comment. It
// says so on stderr, quoting nothing; the findings keep the cloud-config's
// own lines.
func TestCmdlineCarriesOnlyTheBlockOfACloudConfig(t *testing.T) {
	file := writeConfig(t, "cc.yaml", cloudConfig(pxeDoc))
	code, out, errOut := runCLI(t, "cmdline", file)
	if code != exitOK || !strings.Contains(errOut, "cc.yaml is a cloud-config: the line carries its corium block alone, as a standalone document, without its other top-level keys (3) and its comments") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	doc := decodedLine(t, out)
	for _, v := range []string{"secret-4711", "comment-4711", "chpasswd", "users", "write_files", "corium:", "#"} {
		if strings.Contains(doc, v) || strings.Contains(errOut, v) {
			t.Errorf("%q reaches the line or stderr:\n%s\n%s", v, doc, errOut)
		}
	}
	if code, out, _ := runCLI(t, "validate", writeConfig(t, "line.yaml", doc)); code != exitOK || !strings.HasSuffix(out, "line.yaml: valid\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("the block alone: exit %d\n%s", code, out)
	}
	_, grubbed, _ := runCLI(t, "cmdline", "--grub", file)
	if got := grubWordsless(grubbed); got != strings.TrimSuffix(out, "\n") {
		t.Errorf("--grub carries another document: %q, want %q", got, out)
	}

	// The block's inline token, on line 10 of the cloud-config.
	token := fixture.JoinToken("fake00.inlinecmdline000")
	withToken := writeConfig(t, "cc.yaml", cloudConfig(pxeDocWithToken(token)))
	code, out, errOut = runCLI(t, "cmdline", "--allow-inline-secrets", withToken)
	if code != exitOK || !strings.Contains(errOut, "cc.yaml:10:12: warning: join.token: is an inline secret") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if doc := decodedLine(t, out); !strings.Contains(doc, token) || strings.Contains(doc, "chpass") {
		t.Errorf("--allow-inline-secrets: the line carries\n%s", doc)
	}
}

// grubWordsless undoes --grub's single quotes, which the parameters need
// only around the data: URL.
func grubWordsless(line string) string {
	return strings.ReplaceAll(strings.TrimSuffix(line, "\n"), "'", "")
}

// validate --for cmdline measures what cmdline puts on the line: a
// cloud-config's block alone, not its other keys.
func TestValidateForCmdlineMeasuresTheBlockAlone(t *testing.T) {
	big := strings.Replace(cloudConfig(pxeDoc), "content: files-secret-4711", "content: "+strings.Repeat("x", source.MaxCmdline), 1)
	file := writeConfig(t, "cc.yaml", big)
	if code, out, _ := runCLI(t, "validate", "--for", "cmdline", file); code != exitOK || strings.Contains(out, "command line") {
		t.Errorf("exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "cmdline", file); code != exitOK || len(out) > 1024 {
		t.Errorf("exit %d, %d bytes", code, len(out))
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

// grubWords has GRUB itself (grub-emu) read words as it reads a linux line,
// and returns the words it hands on.
func grubWords(t *testing.T, words string) []string {
	t.Helper()
	host.RequireCommands(t, "grub-emu", "script")
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
	return strings.Split(strings.TrimSuffix(strings.TrimPrefix(joined, "["), "]"), "][")
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
