package schema_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// The seeds below (and those under testdata/fuzz/) run in the normal suite;
// `go test -fuzz=FuzzX ./internal/schema` explores from them.

const fuzzKey = "yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk="

var fuzzDocs = []string{
	"role: single\n",
	"version: 1\nrole: controller\ncluster:\n  name: prod\n  endpoint: 203.0.113.10\n",
	"#cloud-config\nhostname: x\ncorium:\n  role: worker\n  join:\n    tokenFrom:\n      file: /run/token\n",
	"corium:\n  role: controller+worker\n",
	"role: worker\njoin:\n  tokenFrom: {url: 'https://example.com/t?sig=abc', authFile: /etc/auth, waitFor: 5m}\n",
	"role: controller+worker\nha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  authPass: pass\n",
	"role: controller+worker\nwireguard:\n  - name: wg0\n    address: [10.10.0.1/24, 'fd00::1/64']\n    listenPort: 51820\n    mtu: 1420\n    nodeAddress: true\n    privateKey: " + fuzzKey + "\n    peers:\n      - publicKey: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n        endpoint: 198.51.100.2:51820\n        allowedIPs: [10.10.0.2/32]\n        persistentKeepalive: 25\nfirewall:\n  clusterPorts: overlay\n  publicPorts: [6443]\n",
	"role: worker\nwireguard:\n  - name: wg0\n    address: 10.10.0.1/24\n    privateKeyFrom: {credential: corium.wg0}\n    peers:\n      - publicKey: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n        allowedIPs: [10.244.0.0/16]\n",
	"role: single\nnode:\n  name: n1\n  labels: {a/b: c}\n  taints: [{key: k, value: v, effect: NoSchedule}]\nk0s:\n  patch: {spec: {telemetry: {enabled: true}}}\n",
	"role: single\nrole: worker\n",
	"role: [single]\nnetwork: {podCIDR: 10.0.0.0/8, serviceCIDR: 10.96.0.0/12, cni: calico}\n",
	"a: &a [*a]\n",
	"role: single\n---\nrole: worker\n",
	"\t- :\n",
	"",
}

// FuzzParseValidate: any bytes are a document, a syntax error, or findings;
// never a panic. Findings are in document order, complete, deterministic, and
// Load agrees with Validate.
func FuzzParseValidate(f *testing.F) {
	for _, d := range fuzzDocs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := schema.Parse(data)
		if err != nil {
			var se *schema.SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Parse error is %T (%v), want *schema.SyntaxError", err, err)
			}
			if _, _, lerr := schema.Load(data); lerr == nil {
				t.Fatal("Load accepts a document Parse calls a syntax error")
			}
			return
		}
		fs := schema.Validate(doc)
		checkFindings(t, fs)

		again, err := schema.Parse(data)
		if err != nil {
			t.Fatalf("second Parse: %v", err)
		}
		if a, b := render(fs), render(schema.Validate(again)); a != b {
			t.Fatalf("Validate is not deterministic:\n%s\n---\n%s", a, b)
		}

		cfg, lfs, err := schema.Load(data)
		if (err == nil) != (fs.Err() == nil) {
			t.Fatalf("Load error %v, Validate error %v", err, fs.Err())
		}
		if render(lfs) != render(fs) {
			t.Fatalf("Load findings differ from Validate's")
		}
		if err != nil {
			return
		}
		if cfg == nil {
			t.Fatal("Load returned no config and no error")
		}
		once := marshal(t, cfg)
		schema.ApplyDefaults(cfg)
		if twice := marshal(t, cfg); once != twice {
			t.Fatalf("ApplyDefaults is not idempotent:\n%s\n---\n%s", once, twice)
		}
	})
}

func checkFindings(t *testing.T, fs schema.Findings) {
	t.Helper()
	positioned := true
	last := 0
	for i, f := range fs {
		if f.Message == "" {
			t.Fatalf("finding %d at %q has no message", i, f.Path)
		}
		if f.Severity != finding.Error && f.Severity != finding.Warning {
			t.Fatalf("finding %d has severity %d", i, f.Severity)
		}
		if f.Line < 0 || f.Col < 0 {
			t.Fatalf("finding %d has position %d:%d", i, f.Line, f.Col)
		}
		switch {
		case f.Line == 0:
			positioned = false
		case !positioned:
			t.Fatalf("finding %d (line %d) follows one without a position", i, f.Line)
		case f.Line < last:
			t.Fatalf("findings out of document order: line %d after line %d", f.Line, last)
		default:
			last = f.Line
		}
	}
}

func render(fs schema.Findings) string {
	var b strings.Builder
	for _, f := range fs {
		b.WriteString(f.Severity.String() + " " + f.String() + "\n")
	}
	return b.String()
}

func marshal(t *testing.T, cfg *schema.Config) string {
	t.Helper()
	b, err := json.Marshal(cfg)
	if err != nil {
		t.Fatalf("marshalling the config: %v", err)
	}
	return string(b)
}

// quote spells s as a YAML double-quoted scalar (JSON strings are YAML).
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

var credentialName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// FuzzSecretSource: a SecretSource the validator accepts is one the resolver
// can use as the contract defines it, and its messages never carry a URL's
// query string (where signed URLs keep their signature).
func FuzzSecretSource(f *testing.F) {
	f.Add("/run/secrets/token", "", "", "", "")
	f.Add("", "https://vault.example/v1/t?sig=0123456789", "/etc/corium/auth", "", "30s")
	f.Add("", "", "", "corium.join", "1h")
	f.Add("relative", "http://x", "", "bad name", "2h")
	f.Add("/a", "https://x", "", "c", "-1s")
	f.Add("", "https://user:pw@example.com:8443/p", "", "", "1h0m1s")
	f.Add("", "HTTPS://EXAMPLE.COM/", "rel", "", "0")
	f.Fuzz(func(t *testing.T, file, rawURL, authFile, credential, waitFor string) {
		fields := map[string]string{"file": file, "url": rawURL, "authFile": authFile, "credential": credential, "waitFor": waitFor}
		var b strings.Builder
		b.WriteString("role: worker\njoin:\n  tokenFrom:\n")
		set := 0
		for _, k := range []string{"file", "url", "authFile", "credential", "waitFor"} {
			if fields[k] != "" {
				b.WriteString("    " + k + ": " + quote(fields[k]) + "\n")
				set++
			}
		}
		if set == 0 {
			return
		}
		doc, err := schema.Parse([]byte(b.String()))
		if err != nil {
			return // a string YAML cannot carry (invalid UTF-8)
		}
		fs := schema.Validate(doc)
		checkFindings(t, fs)
		if u, err := url.Parse(rawURL); err == nil && len(u.RawQuery) >= 8 {
			for _, f := range fs {
				if strings.Contains(f.String(), u.RawQuery) {
					t.Fatalf("finding quotes the URL's query string: %s", f)
				}
			}
		}
		for _, f := range fs {
			if f.Severity == finding.Error && strings.HasPrefix(f.Path, "join.tokenFrom") {
				return
			}
		}
		if fs.Err() != nil {
			return // an error elsewhere may hide this one (a broken field)
		}
		kinds := 0
		for _, v := range []string{file, rawURL, credential} {
			if v != "" {
				kinds++
			}
		}
		if kinds != 1 {
			t.Fatalf("accepted a SecretSource with %d of file/url/credential", kinds)
		}
		if file != "" && !path.IsAbs(file) {
			t.Fatalf("accepted a relative file %q", file)
		}
		if rawURL != "" {
			u, err := url.Parse(rawURL)
			if err != nil || u.Scheme != "https" || u.Host == "" {
				t.Fatalf("accepted url %q, not an https:// URL with a host", rawURL)
			}
		}
		if authFile != "" && !path.IsAbs(authFile) {
			t.Fatalf("accepted a relative authFile %q", authFile)
		}
		if credential != "" && !credentialName.MatchString(credential) {
			t.Fatalf("accepted credential name %q", credential)
		}
		if waitFor != "" {
			d, err := time.ParseDuration(waitFor)
			if err != nil || d < 0 || d > time.Hour {
				t.Fatalf("accepted waitFor %q", waitFor)
			}
		}
	})
}

// messageAlphabet is text a finding may hold whatever the secret: a fuzzed
// value made only of it is not evidence of a leak.
var messageAlphabet = regexp.MustCompile(`^[a-z0-9 .,:;'()/_\-\[\]]*$`)

// FuzzInlineSecret: whatever an inline secret holds, no finding quotes it.
func FuzzInlineSecret(f *testing.F) {
	f.Add(fuzzKey)
	f.Add("K0S-JOIN-TOKEN-H4sIAAAAAAAC/0yVzY7j")
	f.Add(fixture.JoinToken("")) // of k0s's shape: past the token's own check
	f.Add("p@ss word\nsecond line")
	f.Add("not base64!!")
	f.Add("yAnz5TF+lXXJte14tji3zlMNq+hd2rYUIgJBgB3fBmk")  // no padding
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAB=") // non-zero trailing bits
	f.Add("[1, 2]")
	f.Fuzz(func(t *testing.T, value string) {
		skeleton := "role: controller+worker\njoin:\n  token: %s\nha:\n  enabled: true\n  virtualIP: 192.0.2.100/24\n  authPass: %s\nwireguard:\n  - name: wg0\n    address: 10.10.0.1/24\n    listenPort: 51820\n    privateKey: %s\n    peers:\n      - publicKey: xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n        allowedIPs: [10.10.0.2/32]\n        presharedKey: %s\n"
		q := quote(value)
		doc := strings.ReplaceAll(skeleton, "%s", q)
		d, err := schema.Parse([]byte(doc))
		if err != nil {
			return
		}
		fs := schema.Validate(d)
		checkFindings(t, fs)
		probe := strings.TrimSpace(value)
		if len(probe) < 8 || messageAlphabet.MatchString(probe) || strings.Contains(skeleton, probe) {
			return
		}
		for _, f := range fs {
			if strings.Contains(f.String(), probe) {
				t.Fatalf("finding quotes the inline secret: %s", f)
			}
		}
		if err := fs.Err(); err != nil && strings.Contains(err.Error(), probe) {
			t.Fatal("the joined error quotes the inline secret")
		}
	})
}

// FuzzPeerPublicKey: a public key validation accepts is one wg accepts: the
// canonical base64 of 32 bytes (Go's lenient decoder alone would take stray
// bits after the last byte, which wg refuses at boot).
func FuzzPeerPublicKey(f *testing.F) {
	f.Add("xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=")
	f.Add("xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dh=")
	f.Add("xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg")
	f.Add(" xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=")
	f.Add("xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\n")
	f.Fuzz(func(t *testing.T, key string) {
		doc, err := schema.Parse([]byte("role: controller+worker\nwireguard:\n  - name: wg0\n    address: 10.10.0.1/24\n    listenPort: 51820\n    privateKey: " + fuzzKey + "\n    peers:\n      - publicKey: " + quote(key) + "\n        allowedIPs: [10.10.0.2/32]\n"))
		if err != nil {
			return
		}
		fs := schema.Validate(doc)
		for _, f := range fs {
			if f.Severity == finding.Error && f.Path == "wireguard[0].peers[0].publicKey" {
				return
			}
		}
		raw, err := base64.StdEncoding.Strict().DecodeString(key)
		if err != nil || len(raw) != 32 {
			t.Fatalf("accepted publicKey %q, which wg refuses", key)
		}
	})
}
