package main

import (
	"encoding/base64"
	"strings"
	"testing"
)

// patchSecretsDoc carries secrets a plan masks inside k0s.patch: a helm
// repository's password and keepalived's authPass.
const patchSecretsDoc = `role: single
k0s:
  patch:
    spec:
      extensions:
        helm:
          repositories:
            - {name: internal, url: "https://charts.example.net", username: ops, password: helmpass4711}
      network:
        controlPlaneLoadBalancing:
          keepalived:
            vrrpInstances:
              - {virtualIPs: [192.0.2.100/24], authPass: vrrp4711}
`

// A secret inside k0s.patch is refused on the command line in every form
// cmdline prints, as an inline secret is, each named by its key and none
// quoted; validate --for cmdline warns of each (fatal with --strict), and
// --allow-inline-secrets alone lets the line through.
func TestCmdlineRefusesSecretsInsideK0sPatch(t *testing.T) {
	file := writeConfig(t, "patch.yaml", patchSecretsDoc)
	quotes := func(text string) bool {
		for _, v := range []string{"helmpass4711", "vrrp4711"} {
			if strings.Contains(text, v) || strings.Contains(text, base64.StdEncoding.EncodeToString([]byte(v))) {
				return true
			}
		}
		return false
	}
	paths := `(k0s.patch["spec"]["network"]["controlPlaneLoadBalancing"]["keepalived"]["vrrpInstances"][0]["authPass"], k0s.patch["spec"]["extensions"]["helm"]["repositories"][0]["password"])`
	for _, form := range [][]string{nil, {"--grub"}, {"--ipxe"}} {
		code, out, errOut := runCLI(t, append(append([]string{"cmdline"}, form...), file)...)
		if code != exitFailed || out != "" || !strings.Contains(errOut, "refusing") || !strings.Contains(errOut, paths) || quotes(errOut) {
			t.Errorf("cmdline %v: exit %d, stdout %q, stderr %q", form, code, out, errOut)
		}
	}
	code, out, _ := runCLI(t, "validate", "--for", "cmdline", file)
	if code != exitOK || !strings.Contains(out, `patch.yaml:8:`) || !strings.Contains(out, `is a secret inside k0s.patch`) || quotes(out) {
		t.Errorf("validate --for cmdline: exit %d\n%s", code, out)
	}
	if code, out, _ = runCLI(t, "validate", "--for", "cmdline", "--strict", file); code != exitFailed || quotes(out) {
		t.Errorf("validate --for cmdline --strict: exit %d\n%s", code, out)
	}
	if code, out, _ = runCLI(t, "validate", file); code != exitOK || strings.Contains(out, "k0s.patch") {
		t.Errorf("validate, not for cmdline: exit %d\n%s", code, out)
	}
	code, out, errOut := runCLI(t, "cmdline", "--allow-inline-secrets", file)
	if code != exitOK || !strings.HasPrefix(out, "corium.config.sha256=") || !strings.Contains(errOut, "is a secret inside k0s.patch") || quotes(errOut) {
		t.Errorf("--allow-inline-secrets: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
