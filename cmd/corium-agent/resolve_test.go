package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// resolveToken is the test documents' join token.
var resolveToken = fixture.ControllerJoinToken("fake00.resolvesecret000")

// Secret values of the test documents; no output of resolve may hold one.
var resolveSecrets = []string{
	resolveToken,
	"S3cr3tPw",
	"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=",
	"ISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0A=",
	"SIGNATURE-9c1e",
}

// resolveSecretDoc is a valid block holding every kind of inline secret.
func resolveSecretDoc(name string) string {
	return `role: controller
cluster:
  name: ` + name + `
  endpoint: 10.20.0.1
join:
  token: ` + resolveToken + `
ha:
  enabled: true
  virtualIP: 10.20.0.100/24
  authPass: S3cr3tPw
wireguard:
  - name: wg0
    address: 10.30.0.2/24
    listenPort: 51820
    nodeAddress: true
    privateKey: AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=
    peers:
      - publicKey: TVYmNnJxw6XWMBbDBIk5UY4TYQWR1NSBrRs5mhQ3OQk=
        endpoint: 192.0.2.11:51820
        allowedIPs: [10.30.0.1/32]
        presharedKey: ISIjJCUmJygpKissLS4vMDEyMzQ1Njc4OTo7PD0+P0A=
`
}

// resolveURLDoc fetches its token from a presigned URL whose query is a credential.
const resolveURLDoc = `role: worker
cluster:
  name: by-url
join:
  tokenFrom:
    url: https://provision.example.net/tokens/w1?X-Sig=SIGNATURE-9c1e&v=2
`

func resolveEmbedded(doc string) string {
	return "#cloud-config\nhostname: box\ncorium:\n  " + strings.ReplaceAll(strings.TrimRight(doc, "\n"), "\n", "\n  ") + "\n"
}

func resolveRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		host := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(host), 0o755); err != nil {
			t.Fatal(err)
		}
		if content == "<dir>" {
			if err := os.Mkdir(host, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(host, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// resolvedJSON decodes resolve's JSON output into plain values, so the test
// checks the shape the contract names and not the Go types.
type resolvedJSON struct {
	Source string `json:"source"`
	Tried  []struct {
		Source, Outcome, Reason string
	} `json:"tried"`
	Pin    string         `json:"pin"`
	Config map[string]any `json:"config"`
	Error  string         `json:"error"`
}

func decodeResolved(t *testing.T, out string) resolvedJSON {
	t.Helper()
	var r resolvedJSON
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("decoding %q: %v", out, err)
	}
	if !strings.Contains(out, `"config":`) || !strings.Contains(out, `"tried":`) || !strings.Contains(out, `"source":`) {
		t.Errorf("a key of the contract's shape is missing:\n%s", out)
	}
	return r
}

func resolveNoSecrets(t *testing.T, outputs ...string) {
	t.Helper()
	for _, out := range outputs {
		for _, s := range resolveSecrets {
			if strings.Contains(out, s) {
				t.Errorf("output holds the secret %q:\n%s", s, out)
			}
		}
	}
}

func TestResolve(t *testing.T) {
	cmdline := func(doc string) string {
		return "BOOT_IMAGE=/vmlinuz corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(doc)) + " quiet\n"
	}
	for _, tc := range []struct {
		name     string
		files    map[string]string
		code     int
		source   string
		outcomes string
		cluster  string // config.cluster.name, "" for no config
		text     string // in the text output
		stderr   string
	}{
		{"file", map[string]string{"/etc/corium/config.yaml": resolveSecretDoc("from-file"), "/usr/share/corium/config.yaml": resolveSecretDoc("from-default")},
			0, "/etc/corium/config.yaml", "used", "from-file", "source: /etc/corium/config.yaml", ""},
		{"cloud-init", map[string]string{"/var/lib/cloud/instance/cloud-config.txt": resolveEmbedded(resolveSecretDoc("from-cloud-init"))},
			0, "cloud-init", "absent used", "from-cloud-init", "- cloud-init: used", ""},
		{"cmdline", map[string]string{"/var/lib/cloud/instance/cloud-config.txt": "#cloud-config\nhostname: box\n", "/proc/cmdline": cmdline(resolveSecretDoc("from-cmdline"))},
			0, "cmdline", "absent absent used", "from-cmdline", "- cloud-init: absent (/var/lib/cloud/instance/cloud-config.txt: cloud-config has no corium key)", ""},
		{"default with a presigned secret URL", map[string]string{"/usr/share/corium/config.yaml": resolveURLDoc},
			0, "/usr/share/corium/config.yaml", "absent absent absent used", "by-url", "url: https://provision.example.net/tokens/w1?[redacted]", ""},
		{"none", map[string]string{},
			0, "", "absent absent absent absent", "", "no source holds a corium block", ""},
		{"a failed source stops the chain", map[string]string{"/etc/corium/config.yaml": "<dir>", "/usr/share/corium/config.yaml": resolveSecretDoc("from-default")},
			1, "", "failed", "", "- /etc/corium/config.yaml: failed (reading /etc/corium/config.yaml: is a directory)", "is a directory"},
		{"http without a digest", map[string]string{"/proc/cmdline": "corium.config=http://192.0.2.1/c.yaml?X-Sig=SIGNATURE-9c1e", "/usr/share/corium/config.yaml": resolveSecretDoc("from-default")},
			1, "", "absent absent failed", "", "plain http is refused", "plain http is refused"},
		{"digest mismatch", map[string]string{"/proc/cmdline": strings.TrimSuffix(cmdline(resolveSecretDoc("x")), "\n") + " corium.config.sha256=" + strings.Repeat("0", 64), "/usr/share/corium/config.yaml": resolveSecretDoc("from-default")},
			1, "", "absent absent failed", "", "digest mismatch", "digest mismatch"},
		{"unknown scheme", map[string]string{"/proc/cmdline": "corium.config=tftp://192.0.2.1/c.yaml", "/usr/share/corium/config.yaml": resolveSecretDoc("from-default")},
			1, "", "absent absent failed", "", `a "tftp" URL`, `a "tftp" URL`},
		{"YAML syntax error", map[string]string{"/etc/corium/config.yaml": resolveSecretDoc("x") + "  bad: [\n"},
			1, "", "failed", "", "YAML syntax error", "YAML syntax error"},
		{"invalid document", map[string]string{"/etc/corium/config.yaml": strings.Replace(resolveSecretDoc("x"), "role: controller", "role: conductor", 1)},
			1, "/etc/corium/config.yaml", "used", "", "source: /etc/corium/config.yaml", "role"},
		{"invalid document carrying secrets", map[string]string{"/etc/corium/config.yaml": strings.Replace(resolveSecretDoc("x"), "listenPort: 51820", "listenPort: 0\n    privateKeyFrom: {file: /k}", 1)},
			1, "/etc/corium/config.yaml", "used", "", "source: /etc/corium/config.yaml", "privateKey"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := resolveRoot(t, tc.files)
			code, out, errOut := runCLI(t, "resolve", "--root", root, "--format", "json")
			if code != tc.code {
				t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", code, tc.code, out, errOut)
			}
			r := decodeResolved(t, out)
			var got []string
			for _, a := range r.Tried {
				got = append(got, a.Outcome)
			}
			if r.Source != tc.source || strings.Join(got, " ") != tc.outcomes {
				t.Errorf("source %q tried %v, want %q %s", r.Source, got, tc.source, tc.outcomes)
			}
			name := ""
			if r.Config != nil {
				name, _ = r.Config["cluster"].(map[string]any)["name"].(string)
			}
			if name != tc.cluster {
				t.Errorf("config.cluster.name %q, want %q", name, tc.cluster)
			}
			if (tc.code != 0) != (r.Error != "") {
				t.Errorf("error %q with exit %d", r.Error, code)
			}
			if !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr %q, want %q", errOut, tc.stderr)
			}

			tcode, text, terr := runCLI(t, "resolve", "--root", root)
			if tcode != tc.code || !strings.Contains(text, tc.text) {
				t.Errorf("text: exit %d, want %d and %q in\n%s", tcode, tc.code, tc.text, text)
			}
			if tc.cluster != "" && !strings.Contains(text, "name: "+tc.cluster) {
				t.Errorf("text output lacks the document:\n%s", text)
			}
			resolveNoSecrets(t, out, errOut, text, terr)
		})
	}
}

func TestResolveConfigFlag(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "node.yaml")
	if err := os.WriteFile(file, []byte(resolveSecretDoc("from-flag")), 0o600); err != nil {
		t.Fatal(err)
	}
	// The chain's own file must not be read when --config is given.
	root := resolveRoot(t, map[string]string{"/etc/corium/config.yaml": "<dir>"})
	code, out, errOut := runCLI(t, "resolve", "--root", root, "--config", file, "--format", "json")
	r := decodeResolved(t, out)
	if code != 0 || r.Source != file || len(r.Tried) != 1 || r.Config["cluster"].(map[string]any)["name"] != "from-flag" {
		t.Errorf("exit %d, %+v\n%s", code, r, errOut)
	}
	resolveNoSecrets(t, out, errOut)

	code, _, errOut = runCLI(t, "resolve", "--config", filepath.Join(dir, "missing.yaml"))
	if code != exitUsage || !strings.Contains(errOut, "missing.yaml") {
		t.Errorf("a missing --config file: exit %d, stderr %q", code, errOut)
	}
}

func TestResolveUsage(t *testing.T) {
	for _, args := range [][]string{
		{"resolve", "--format", "yaml"},
		{"resolve", "extra"},
		{"resolve", "--root", "/nonexistent-root-dir"},
		{"resolve", "--bogus"},
	} {
		if code, _, _ := runCLI(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
}

// The HTTPS form runs the built binary, because the trust store
// (SSL_CERT_FILE) is read once per process and must hold the test server's
// certificate before anything loads it.
func TestResolveHTTPS(t *testing.T) {
	bin := agentbin.Path(t)
	doc := resolveSecretDoc("from-https")
	srv := tlsserver.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/broken" {
			w.WriteHeader(http.StatusInternalServerError)
			return
		}
		fmt.Fprint(w, doc)
	}))
	ca := tlsserver.CAFile(t, srv)
	for _, tc := range []struct {
		path   string
		code   int
		source string
	}{
		{"/w1.yaml?X-Sig=SIGNATURE-9c1e", 0, "cmdline"},
		{"/broken?X-Sig=SIGNATURE-9c1e", 1, ""},
	} {
		root := resolveRoot(t, map[string]string{
			"/proc/cmdline":                 "corium.config=" + srv.URL + tc.path + " corium.config.wait=5s\n",
			"/usr/share/corium/config.yaml": resolveSecretDoc("from-default"),
		})
		cmd := exec.Command(bin, "resolve", "--root", root, "--format", "json")
		cmd.Env = append(os.Environ(), "SSL_CERT_FILE="+ca)
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != tc.code {
			t.Fatalf("%s: exit %d, want %d\n%s\n%s", tc.path, code, tc.code, out.String(), errOut.String())
		}
		r := decodeResolved(t, out.String())
		if r.Source != tc.source {
			t.Errorf("%s: source %q, want %q", tc.path, r.Source, tc.source)
		}
		last := r.Tried[len(r.Tried)-1]
		if last.Source != "cmdline" || !strings.Contains(last.Reason, srv.URL+"/") {
			t.Errorf("%s: provenance %+v does not name the URL", tc.path, last)
		}
		resolveNoSecrets(t, out.String(), errOut.String())
	}
}
