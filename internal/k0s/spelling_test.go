package k0s

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/k0s/config"
)

// TestRespellingsRefused: every spelling that k0s or a component reads as
// another key than the agent would is a problem at the key as written,
// saying the spelling to use, with the guard on or off; the same settings
// spelled as k0s spells them are none.
func TestRespellingsRefused(t *testing.T) {
	const kelvin, longS = "\u212a", "\u017f"
	for _, tc := range []struct {
		name  string
		patch map[string]any
		at    string // the problem's path
		says  string // in its message
	}{
		{"a leaf key in other case", patchOf("spec.api.Port", 16443), "spec.api.Port", "spell it port"},
		{"a block key in other case", patchOf("spec.API.port", 16443), "spec.API", "spell it api"},
		{"a key in capitals", patchOf("spec.konnectivity.AGENTPORT", 8133), "spec.konnectivity.AGENTPORT", "spell it agentPort"},
		{"a Kelvin sign", patchOf("spec.api."+kelvin+"0sApiPort", 9444), "spec.api." + kelvin + "0sApiPort", "spell it k0sApiPort"},
		{"a long s", patchOf("spec."+longS+"cheduler.extraArgs.v", "2"), "spec." + longS + "cheduler", "spell it scheduler"},
		{"a list item's key", patchOf("spec.workerProfiles[0].Values", map[string]any{}), "spec.workerProfiles[0].Values", "spell it values"},
		{"extraArgs in other case", patchOf("spec.controllerManager.ExtraArgs.bind-address", "0.0.0.0"), "spec.controllerManager.ExtraArgs", "spell it extraArgs"},
		{"a folded twin", map[string]any{"spec": map[string]any{"api": map[string]any{"k0sApiPort": 9443, "k0sapiport": 9444}}}, "spec.api.k0sapiport", "under another spelling too"},
		{"_ in an extraArgs key", patchOf("spec.controllerManager.extraArgs.bind_address", "0.0.0.0"), "spec.controllerManager.extraArgs.bind_address", "write bind-address"},
		{"_ in a rawArgs flag", patchOf("spec.api.rawArgs", []any{"--secure_port=16443"}), "spec.api.rawArgs[0]", "has _ in a flag's name"},
		{"dashes in an extraArgs key", patchOf("spec.scheduler.extraArgs.--bind-address", "0.0.0.0"), "spec.scheduler.extraArgs.--bind-address", "flag's name alone"},
		{"a value in an extraArgs key", patchOf("spec.network.kuberouter.extraArgs.bgp-port=1790", ""), "spec.network.kuberouter.extraArgs.bgp-port=1790", "flag's name alone"},
		{"a Felix variable in lower case", patchOf("spec.network.calico.envVars.felix_vxlanport", "4790"), "spec.network.calico.envVars.felix_vxlanport", "write it FELIX_VXLANPORT"},
		{"a Felix variable with a Kelvin sign", patchOf("spec.network.calico.envVars.FELIX_"+kelvin+"EY", "1"), "spec.network.calico.envVars.FELIX_" + kelvin + "EY", "write it FELIX_KEY"},
		{"two Felix variables one under lower case", patchOf("spec.network.calico.envVars", map[string]any{"FELIX_LOGSEVERITYSCREEN": "info", "FELIX_LOGSEVERITYSCREE" + kelvin: "debug"}), "spec.network.calico.envVars.FELIX_LOGSEVERITYSCREE" + kelvin, "write it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, guarded := range []bool{true, false} {
				in := everyCondition[0]
				in.Patch, in.Guarded = tc.patch, guarded
				var found bool
				for _, p := range Of(in).Problems {
					found = found || (p.Path == tc.at && strings.Contains(p.Message, tc.says))
				}
				if !found {
					t.Errorf("guarded %v: no problem at %s saying %q; problems %v", guarded, tc.at, tc.says, Of(in).Problems)
				}
			}
		})
	}
	// The control: k0s's own spellings of the same settings, which the
	// guard follows, are no problem.
	in := everyCondition[0]
	in.Guarded = true
	in.Patch = map[string]any{"spec": map[string]any{
		"api":          map[string]any{"port": 16443, "k0sApiPort": 9444, "extraArgs": map[string]any{"audit-log-maxage": "30"}, "rawArgs": []any{"--v=2"}},
		"konnectivity": map[string]any{"agentPort": 8133},
		"network": map[string]any{
			"kuberouter": map[string]any{"metricsPort": 9080, "extraArgs": map[string]any{"bgp-port": "1790"}},
			"calico":     map[string]any{"envVars": map[string]any{"FELIX_LOGSEVERITYSCREEN": "info"}},
		},
		"workerProfiles": []any{map[string]any{"name": "default", "values": map[string]any{"maxPods": 200}}},
	}}
	if ps := Of(in).Problems; len(ps) > 0 {
		t.Errorf("k0s's own spellings refused: %v", ps)
	}
}

// TestControllerAnswersForWorkers: a controller without a kubelet publishes
// the worker profiles, kube-proxy and the CNI to every worker, so a worker's
// listener setting in its document is refused as in a worker's.
func TestControllerAnswersForWorkers(t *testing.T) {
	in := Input{BaseInput: config.BaseInput{Provider: config.ProviderKubeRouter, Storage: config.StorageEtcd}, Controller: true, Guarded: true}
	in.Patch = patchOf("spec.workerProfiles[0]", map[string]any{"name": "default", "values": map[string]any{"ReadOnlyPort": 10255}})
	var found bool
	for _, p := range Of(in).Problems {
		found = found || (p.Path == "spec.workerProfiles[0].values.ReadOnlyPort" && strings.Contains(p.Message, "publishes it to every worker"))
	}
	if !found {
		t.Errorf("a controller's document opening the kubelet's read-only port on every worker is not refused: %v", Of(in).Problems)
	}
	in.Kubelet, in.Controller = true, false
	for _, p := range Of(in).Problems {
		if strings.Contains(p.Message, "publishes") {
			t.Errorf("a worker's document said to publish: %s: %s", p.Path, p.Message)
		}
	}
}

// TestPatchesRefusedWhileGuarded: the patches of every block k0s applies
// them to are refused with the guard on, and left alone with it off.
func TestPatchesRefusedWhileGuarded(t *testing.T) {
	patch := []any{map[string]any{"target": map[string]any{"kind": "DaemonSet", "name": "x"}, "patch": map[string]any{"type": "json", "content": "[]"}}}
	for _, block := range []string{"spec.network.kubeProxy", "spec.network.kuberouter", "spec.network.calico", "spec.network.coreDNS", "spec.metricsServer"} {
		for _, guarded := range []bool{true, false} {
			in := everyCondition[0]
			in.Patch, in.Guarded = patchOf(block+".patches", patch), guarded
			var found bool
			for _, p := range Of(in).Problems {
				found = found || (p.Path == block+".patches" && p.Message == msgPatches)
			}
			if found != guarded {
				t.Errorf("%s.patches with the guard %v: refused %v", block, guarded, found)
			}
		}
	}
}
