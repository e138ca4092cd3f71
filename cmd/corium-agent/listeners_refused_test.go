package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// TestListenerRefusalsAgree: a k0s.patch that moves listeners where the
// guard cannot follow (one setting of each spelling of k0s's listeners'
// table, a block's patches, and keys spelled otherwise than k0s and the
// components read them) is refused by validate, plan, apply and firewall
// show alike, each setting at its path with the same words, and nothing is
// written.
func TestListenerRefusalsAgree(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(demo, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	config := writeConfig(t, "config.yaml", string(data)+`k0s:
  patch:
    spec:
      controllerManager: {extraArgs: {bind-address: 0.0.0.0}}
      storage: {etcd: {rawArgs: [--listen-client-urls=https://0.0.0.0:12379]}}
      workerProfiles: [{name: default, values: {readOnlyPort: 10255}}]
      network: {calico: {envVars: {FELIX_HEALTHHOST: 0.0.0.0, felix_logseverityscreen: info}}, kuberouter: {extraArgs: {enable-pprof: "true"}}, kubeProxy: {patches: [{target: {kind: DaemonSet, name: kube-proxy}, patch: {type: json, content: "[]"}}]}}
      API: {rawArgs: [--secure_port=16443]}
`)
	paths := []string{
		`k0s.patch["spec"]["controllerManager"]["extraArgs"]["bind-address"]`,
		`k0s.patch["spec"]["storage"]["etcd"]["rawArgs"][0]`,
		`k0s.patch["spec"]["workerProfiles"][0]["values"]["readOnlyPort"]`,
		`k0s.patch["spec"]["network"]["calico"]["envVars"]["FELIX_HEALTHHOST"]`,
		`k0s.patch["spec"]["network"]["calico"]["envVars"]["felix_logseverityscreen"]`,
		`k0s.patch["spec"]["network"]["kuberouter"]["extraArgs"]["enable-pprof"]`,
		`k0s.patch["spec"]["network"]["kubeProxy"]["patches"]`,
		`k0s.patch["spec"]["API"]`,
	}
	facts := filepath.Join(demo, "facts.json")
	said := map[string]map[string]string{} // path -> command -> message
	for _, args := range [][]string{
		{"validate", config},
		{"plan", "--config", config, "--facts", facts},
		{"apply", "--config", config, "--facts", facts},
		{"firewall", "show", "--config", config},
	} {
		cmd := args[0]
		if cmd == "plan" || cmd == "apply" {
			args = append(args, "--root", fixture.DemoRoot(t, demo))
		}
		code, out, errOut := runCLI(t, args...)
		if code == exitOK {
			t.Errorf("%s accepted the document:\n%s", cmd, out)
			continue
		}
		for _, p := range paths {
			m := regexp.MustCompile(regexp.QuoteMeta(p) + `: ([^\n]*)`).FindStringSubmatch(out + errOut)
			if m == nil {
				t.Errorf("%s does not name %s:\n%s\n%s", cmd, p, out, errOut)
				continue
			}
			if said[p] == nil {
				said[p] = map[string]string{}
			}
			said[p][cmd] = m[1]
			if strings.Contains(m[1], "0.0.0.0") || strings.Contains(m[1], "12379") {
				t.Errorf("%s quotes the value set at %s: %s", cmd, p, m[1])
			}
		}
	}
	for p, by := range said {
		for cmd, msg := range by {
			if msg != by["validate"] {
				t.Errorf("%s: %s says %q, validate %q", p, cmd, msg, by["validate"])
			}
		}
	}
}
