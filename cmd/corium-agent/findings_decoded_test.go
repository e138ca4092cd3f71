package main

import (
	"encoding/base64"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
)

var updateFindings = flag.Bool("update-findings", false, "rewrite testdata/decoded/*.golden from the current output")

// The decoded document's secrets: a private key and a preshared key
// inline, a presigned URL's signature, a helm repository's password in
// k0s.patch, each on a line that has a finding.
const (
	decodedKey       = "cGxhaW50ZXh0LXNlY3JldC1rZXktMzJieXRlcy0hIT0="
	decodedPSK       = "cHJlc2hhcmVkLXNlY3JldC1rZXktMzItYnl0ZXMhISE="
	decodedSignature = "SIGNATURE-5ecret-0f3a9c"
	decodedHelmPass  = "HELM-5ecret-pw-7d1e"
)

// decodedDoc is in the compact (flow) form docs/pxe.md recommends for the
// kernel line's budget, with a finding on each line holding a secret.
const decodedDoc = `role: worker
cluster: {name: edge}
join: {tokenFrom: {url: 'https://p.example/t?s=` + decodedSignature + `', authFile: /run/corium/provision.bearer, waitFor: 90m}}
node: {name: w1}
wireguard:
- {name: wg0, address: 10.10.0.11/24, nodeAddress: true, privateKey: ` + decodedKey + `, mtu: 100, peers: [{publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=, endpoint: 192.0.2.11:51820, allowedIPs: [10.10.0.1/32], presharedKey: ` + decodedPSK + `, persistentKeepalive: 25}]}
k0s: {patch: {spec: {extensions: {helm: {repositories: [{name: r, url: 'https://charts.example.net', password: ` + decodedHelmPass + `}]}}}}}
`

// decodedFiles are decodedDoc as each carrier holds it: an iPXE script as
// cmdline --ipxe prints it, a kernel command line as /proc/cmdline shows
// it, a GRUB entry with the parameters cmdline --grub quotes.
func decodedFiles(t *testing.T) (dir string, files []string) {
	t.Helper()
	params := source.InlineParams([]byte(decodedDoc))
	scripts := map[string]string{"s1.cmdline": "BOOT_IMAGE=/vmlinuz root=/dev/sda2 " + strings.Join(params, " ") + "\n"}
	for _, l := range source.Loaders() {
		script, _, err := l.Script(params, source.Boot{Kernel: "vmlinuz", Initrd: "initrd.img"})
		if err != nil {
			t.Fatal(err)
		}
		switch l.Name {
		case "ipxe":
			scripts["s1.ipxe"] = script
		case "grub":
			scripts["s1.cfg"] = "menuentry 'w1' {\n  linux /vmlinuz root=/dev/sda2 " + strings.TrimSuffix(script, "\n") + "\n  initrd /initrd.img\n}\n"
		}
	}
	dir = t.TempDir()
	for _, name := range []string{"s1.ipxe", "s1.cmdline", "s1.cfg"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(scripts[name]), 0o600); err != nil {
			t.Fatal(err)
		}
		files = append(files, name)
	}
	return dir, files
}

// A finding inside a document carried base64 on a kernel line names the
// carrying file and line, then the decoded document's line and column, and
// shows a window of that decoded line with a marker under the column, the
// secrets on it masked: validate and cmdline alike, for each carrier.
func TestFindingsPointIntoTheDecodedDocument(t *testing.T) {
	dir, files := decodedFiles(t)
	for _, name := range files {
		for cmd, args := range map[string][]string{
			"validate": {"validate", filepath.Join(dir, name)},
			"cmdline":  {"cmdline", filepath.Join(dir, name)},
		} {
			code, out, errOut := runCLI(t, args...)
			if code != exitFailed {
				t.Errorf("%s %s: exit %d", cmd, name, code)
			}
			got := strings.ReplaceAll(out+errOut, dir+string(filepath.Separator), "")
			checkDecodedGolden(t, filepath.Join("testdata", "decoded", cmd+"-"+name+".golden"), got)
		}
	}
}

func checkDecodedGolden(t *testing.T, golden, got string) {
	t.Helper()
	if *updateFindings {
		if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run %s -update-findings writes it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs:\n--- got\n%s--- want\n%s", golden, got, want)
	}
}

// findingHead is a finding's first line at a position in a decoded
// document: the file's line, the document's line and column.
var findingHead = regexp.MustCompile(`(?m)^s1\.ipxe:2: corium\.config \(decoded\) (\d+):(\d+): `)

// No output of any command reading the carriers holds a secret of the
// document, whole or 12 characters of it, raw or in base64, nor 16
// characters of the carrier's base64: the windows mask them. The control: each secret stands within the window of
// a finding the output shows, so an unmasked window would show it.
func TestDecodedWindowsHoldNoSecret(t *testing.T) {
	dir, files := decodedFiles(t)
	secrets := []string{decodedKey, decodedPSK, decodedSignature, decodedHelmPass}
	var all strings.Builder
	for _, name := range files {
		file := filepath.Join(dir, name)
		for _, args := range [][]string{
			{"validate", file},
			{"validate", "--format", "json", file},
			{"validate", "--for", "cmdline", file},
			{"validate", "--cluster", file},
			{"cmdline", file},
			{"cmdline", "--ipxe", file},
			{"plan", "--root", t.TempDir(), "--config", file},
			{"resolve", "--root", t.TempDir(), "--config", file},
		} {
			_, out, errOut := runCLI(t, args...)
			all.WriteString(out + errOut)
		}
	}
	payload := base64.StdEncoding.EncodeToString([]byte(decodedDoc))
	for _, s := range secrets {
		forms := []string{s, base64.StdEncoding.EncodeToString([]byte(s))}
		if k, err := base64.StdEncoding.DecodeString(s); err == nil {
			forms = append(forms, string(k)) // a key's bytes, should any printer decode it
		}
		for _, f := range forms {
			if strings.Contains(all.String(), f) {
				t.Errorf("the output holds a secret (%d characters)", len(f))
			}
		}
		// A window may cut a secret: no 12 characters of one are shown.
		for i := 0; i+12 <= len(s); i++ {
			if strings.Contains(all.String(), s[i:i+12]) {
				t.Errorf("the output holds 12 characters of the secret starting %.4s...", s)
				break
			}
		}
	}
	for i := 0; i+16 <= len(payload); i++ {
		if strings.Contains(all.String(), payload[i:i+16]) {
			t.Fatalf("the output holds the carrier's base64 at %d", i)
		}
	}

	// The control: with the masks off, each window would show a secret.
	_, out, _ := runCLI(t, "validate", filepath.Join(dir, "s1.ipxe"))
	out = strings.ReplaceAll(out, dir+string(filepath.Separator), "")
	lines := strings.Split(decodedDoc, "\n")
	for _, s := range secrets {
		shown := false
		for _, m := range findingHead.FindAllStringSubmatch(out, -1) {
			n, _ := strconv.Atoi(m[1])
			col, _ := strconv.Atoi(m[2])
			raw := []rune(lines[n-1])
			from := min(max(col-1-source.ExcerptWidth/2, 0), max(len(raw)-source.ExcerptWidth, 0))
			to := min(from+source.ExcerptWidth, len(raw))
			shown = shown || strings.Contains(string(raw[from:to]), s[:12])
		}
		if !shown {
			t.Errorf("no finding's window stands over the secret starting %.4s...: the test shows nothing", s)
		}
	}
}
