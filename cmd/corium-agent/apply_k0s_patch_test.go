package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// A k0s.patch that k0s would refuse stops plan and apply before the first
// write, naming the field; an operator puts anything in a patch (a helm
// repository's password, kine's DSN), so the refusal never shows the value,
// neither on stdout or stderr (the journal) nor in status.json.
func TestK0sPatchRefusalShowsNoValue(t *testing.T) {
	for name, tc := range map[string]struct {
		patch   string
		markers []string
		paths   []string
	}{
		// Decoding: k0s reports every value it cannot decode.
		"values k0s cannot decode": {
			patch: `
    metadata: {creationTimestamp: "SECRETVALUE-ts-7Hq2"}
    spec:
      network:
        kubeProxy: {iptables: {syncPeriod: 5SECRETVALUE-dur-9Zk4}}
        kuberouter: {mtu: 1400.8675309123}
      konnectivity: {agentPort: 4486753091}
      api: {extraArgs: {"SECRETVALUE-key-3Jd8": [1]}}
      storage: {kine: {dataSource: {"mysql://u:SECRETVALUE-dsn-5Pw1@db/k0s": x}}}
`,
			markers: []string{"SECRETVALUE", "7Hq2", "9Zk4", "8675309123", "4486753091", "3Jd8", "5Pw1"},
			paths:   []string{"metadata.creationTimestamp", "spec.network.kubeProxy.iptables.syncPeriod", "spec.network.kuberouter.mtu", "spec.konnectivity.agentPort", "spec.api.extraArgs", "spec.storage.kine.dataSource"},
		},
		// Validation: values that decode and that k0s then refuses.
		"values k0s refuses": {
			patch: `
    spec:
      storage: {type: "SECRETVALUE-st-2Lm6"}
      network:
        clusterDomain: "SECRETVALUE cd-4Tr9"
        kubeProxy: {mode: "SECRETVALUE-md-6Yb3", metricsBindAddress: "0.0.0.0:SECRETVALUE-port-8Qc5"}
        nodeLocalLoadBalancing: {type: "SECRETVALUE-nl-1Vx7"}
      images: {coredns: {version: "SECRETVALUE v-3Gn2"}}
`,
			markers: []string{"SECRETVALUE", "2Lm6", "4Tr9", "6Yb3", "8Qc5", "1Vx7", "3Gn2"},
			paths:   []string{"spec.storage.type", "spec.network.clusterDomain", "spec.network.kubeProxy.mode", "spec.network.kubeProxy.metricsBindAddress", "spec.network.nodeLocalLoadBalancing.type", "spec.images.coredns.version"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(demo, "config.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			config := writeConfig(t, "config.yaml", string(data)+"k0s:\n  patch:"+tc.patch)
			facts := filepath.Join(demo, "facts.json")
			outputs := map[string]string{}
			for _, cmd := range []string{"plan", "apply"} {
				root := fixture.DemoRoot(t, demo)
				code, out, errOut := runCLI(t, cmd, "--root", root, "--config", config, "--facts", facts)
				// Validation refuses it, as validate does, before anything
				// is rendered: every field named at its k0s.patch path.
				if code != exitFailed || !strings.Contains(errOut, "validating the configuration") {
					t.Fatalf("%s: exit %d, want a refusal:\n%s\n%s", cmd, code, out, errOut)
				}
				for _, p := range tc.paths {
					if !strings.Contains(errOut, patchPath(p)+": ") {
						t.Errorf("%s: the refusal does not name %s:\n%s", cmd, patchPath(p), errOut)
					}
				}
				outputs[cmd+" stdout"], outputs[cmd+" stderr"] = out, errOut
				if cmd == "apply" {
					st, raw := readStatus(t, root)
					if st.Outcome != status.Failed || !strings.Contains(st.Error, patchPath(tc.paths[0])) {
						t.Errorf("status: %s", raw)
					}
					outputs["status.json"] = raw
					if rootfs.New(root).Exists(status.MarkerPath) || rootfs.New(root).Exists("/etc/k0s/k0s.yaml") {
						t.Error("a refused render wrote files")
					}
				}
			}
			for where, text := range outputs {
				for _, m := range tc.markers {
					if strings.Contains(text, m) {
						t.Errorf("%s shows the patch's value %s:\n%s", where, m, text)
					}
				}
			}
		})
	}
}

// patchPath is a ClusterConfig path as the document spells it, below
// k0s.patch.
func patchPath(dotted string) string {
	out := "k0s.patch"
	for _, seg := range strings.Split(dotted, ".") {
		out += `["` + seg + `"]`
	}
	return out
}
