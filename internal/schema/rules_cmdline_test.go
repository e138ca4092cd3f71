package schema

import (
	"context"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// secretURLsDoc takes every kind of secret from a URL: a presigned query, a
// password in the userinfo, a fragment, and one clean URL.
const secretURLsDoc = `role: controller+worker
cluster: {endpoint: 192.0.2.100}
join:
  tokenFrom: {url: "https://s3.example.net/tok?X-Amz-Signature=sigvalue4711&X-Amz-Credential=AKIDEXAMPLE"}
ha:
  enabled: true
  virtualIP: 192.0.2.100/24
  interface: eth0
  virtualRouterID: 7
  authPassFrom: {url: "https://ops:userpass4711@vault.example.net/pass"}
  unicastPeers: [192.0.2.11, 192.0.2.12]
wireguard:
  - name: wg0
    address: 10.10.0.1/24
    nodeAddress: true
    privateKeyFrom: {url: "https://keys.example.net/wg0#frag4711"}
    peers:
      - publicKey: IV1Zc378+VAaswnGIm41QtVAfWm/VmoV+8pUK123Ynk=
        endpoint: 192.0.2.12:51820
        allowedIPs: [10.10.0.2/32]
        presharedKeyFrom: {url: "https://u@keys.example.net/psk?t=1", authFile: /run/bearer}
      - publicKey: 8YQXASrWQYk0VwR1uxweh6TNflX09jii/+7VLE3Z4Cc=
        endpoint: 192.0.2.13:51820
        allowedIPs: [10.10.0.3/32]
        presharedKeyFrom: {url: "https://keys.example.net/psk2", authFile: /run/bearer}
`

// A SecretSource URL carrying credentials is, on the kernel command line, a
// secret every user reads: validate --for cmdline warns of each such field
// by its url's path, says which parts carry them, and quotes none; a clean
// URL and the document read for anything but the command line are left
// alone.
func TestCmdlineWarnsOfCredentialsInSecretURLs(t *testing.T) {
	doc, plain, err := Check(context.Background(), []byte(secretURLsDoc))
	if err != nil || len(plain) != 0 {
		t.Fatalf("the document must be valid as a file: %v %v", err, plain)
	}
	_, fs, _ := Check(context.Background(), []byte(secretURLsDoc), ForCmdline())
	want := map[string]string{
		"join.tokenFrom.url":                         "its query string",
		"ha.authPassFrom.url":                        "its userinfo",
		"wireguard[0].privateKeyFrom.url":            "its fragment",
		"wireguard[0].peers[0].presharedKeyFrom.url": "its userinfo and query string",
	}
	if len(fs) != len(want) || len(fs.Errors()) != 0 {
		t.Errorf("want %d warnings, got %v", len(want), fs)
	}
	for _, f := range fs {
		parts, ok := want[f.Path]
		switch {
		case !ok:
			t.Errorf("unexpected finding %v", f)
		case !strings.Contains(f.Message, "carries credentials ("+parts+")") || !strings.Contains(f.Message, "/proc/cmdline"):
			t.Errorf("%s: %q", f.Path, f.Message)
		case f.Line == 0:
			t.Errorf("%s: no position", f.Path)
		}
		for _, v := range []string{"sigvalue4711", "AKIDEXAMPLE", "userpass4711", "frag4711", "ops", "t=1"} {
			if strings.Contains(f.String(), v) {
				t.Errorf("%s quotes %q: %v", f.Path, v, f)
			}
		}
	}
	got := CmdlineSecrets(doc.Config)
	if len(got) != len(want) {
		t.Fatalf("CmdlineSecrets: %+v", got)
	}
	for _, s := range got {
		if _, ok := want[s.Path]; !ok || s.URLParts == nil || s.Field.From == nil {
			t.Errorf("CmdlineSecrets: %+v", s)
		}
	}
}

// Inline secrets and URL credentials are one list, in document order, each
// named by the field that shows it.
func TestCmdlineSecretsListsInlineAndURLCredentials(t *testing.T) {
	data := strings.Replace(secretURLsDoc, `tokenFrom: {url: "https://s3.example.net/tok?X-Amz-Signature=sigvalue4711&X-Amz-Credential=AKIDEXAMPLE"}`, "token: "+fixture.ControllerJoinToken(""), 1)
	doc, fs, err := Check(context.Background(), []byte(data), ForCmdline())
	if err != nil || doc.Config == nil {
		t.Fatal(err)
	}
	var paths []string
	for _, s := range CmdlineSecrets(doc.Config) {
		paths = append(paths, s.Path)
	}
	if got := strings.Join(paths, " "); got != "join.token ha.authPassFrom.url wireguard[0].privateKeyFrom.url wireguard[0].peers[0].presharedKeyFrom.url" {
		t.Errorf("CmdlineSecrets: %s", got)
	}
	if len(fs) != 4 || fs[0].Path != "join.token" || !strings.Contains(fs[0].Message, "is an inline secret on the kernel command line") {
		t.Errorf("findings: %v", fs)
	}
}

// patchSecretsDoc carries, inside k0s.patch, a helm repository's password
// and keepalived's authPass, both masked by a plan, and a key that only
// looks like one.
const patchSecretsDoc = `role: single
k0s:
  patch:
    spec:
      extensions:
        helm:
          repositories:
            - name: internal
              url: https://charts.example.net
              username: ops
              password: helmpass4711
      network:
        controlPlaneLoadBalancing:
          keepalived:
            vrrpInstances:
              - virtualIPs: [192.0.2.100/24]
                authPass: vrrp4711
      telemetry: {enabled: false}
`

// A secret a plan masks inside k0s.patch is, on the kernel command line,
// every user's: validate --for cmdline warns of each by the key that holds
// it, with its line, quoting no value; read for anything but the command
// line, the document is left alone.
func TestCmdlineWarnsOfSecretsInsideK0sPatch(t *testing.T) {
	doc, plain, err := Check(context.Background(), []byte(patchSecretsDoc))
	if err != nil || len(plain) != 0 {
		t.Fatalf("the document must be valid as a file: %v %v", err, plain)
	}
	_, fs, _ := Check(context.Background(), []byte(patchSecretsDoc), ForCmdline())
	want := map[string]int{
		`k0s.patch["spec"]["extensions"]["helm"]["repositories"][0]["password"]`:                                  11,
		`k0s.patch["spec"]["network"]["controlPlaneLoadBalancing"]["keepalived"]["vrrpInstances"][0]["authPass"]`: 17,
	}
	if len(fs) != len(want) {
		t.Errorf("want %d warnings, got %v", len(want), fs)
	}
	for _, f := range fs {
		line, ok := want[f.Path]
		switch {
		case !ok:
			t.Errorf("unexpected finding %v", f)
		case f.Line != line:
			t.Errorf("%s: line %d, want %d", f.Path, f.Line, line)
		case !strings.Contains(f.Message, "is a secret inside k0s.patch") || !strings.Contains(f.Message, "/proc/cmdline"):
			t.Errorf("%s: %q", f.Path, f.Message)
		}
		for _, v := range []string{"helmpass4711", "vrrp4711"} {
			if strings.Contains(f.String(), v) {
				t.Errorf("%s quotes %q: %v", f.Path, v, f)
			}
		}
	}
	if got := CmdlineSecrets(doc.Config); len(got) != len(want) || !got[0].InPatch {
		t.Errorf("CmdlineSecrets: %+v", got)
	}
}
