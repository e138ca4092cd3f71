package k0s_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	yamlv3 "gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/k0s"
	"github.com/corium/corium-agent/internal/k0s/config"
)

// role is what a node document runs.
type role struct {
	name                string
	controller, kubelet bool
}

var (
	controllerOnly   = role{"controller", true, false}
	controllerWorker = role{"controller+worker", true, true}
	workerOnly       = role{"worker", false, true}
	roles            = []role{controllerOnly, controllerWorker, workerOnly}
)

// diffCase is one k0s.patch and the document it belongs to.
type diffCase struct {
	name              string
	role              role
	storage, provider string
	patch             map[string]any
	muts              []mutation
}

// mutation is one setting the generator put in the patch.
type mutation struct {
	what string
	// at is the ClusterConfig path, as written, of the key the mutation
	// respelled or set: a refusal of the mutation is at or under it.
	at string
	// canonical: spelled as the agent reads it, with a value the guard
	// follows or that opens nothing.
	canonical bool
}

func (c diffCase) input() k0s.Input {
	return k0s.Input{
		BaseInput:  config.BaseInput{Name: "k0s", Provider: c.provider, Storage: c.storage, PodCIDR: "10.244.0.0/16", ServiceCIDR: "10.96.0.0/12"},
		Controller: c.role.controller, Kubelet: c.role.kubelet, Guarded: true, Patch: c.patch,
	}
}

func (c diffCase) canonical() bool {
	return !slices.ContainsFunc(c.muts, func(m mutation) bool { return !m.canonical })
}

// refusedAtMutation: some problem of e is at or under a key that a
// mutation other than a canonical one respelled or set.
func (c diffCase) refusedAtMutation(e k0s.Effective) bool {
	for _, p := range e.Problems {
		for _, m := range c.muts {
			if !m.canonical && under(p.Path, m.at) {
				return true
			}
		}
	}
	return false
}

// under says whether path is at or below prefix.
func under(path, prefix string) bool {
	rest, ok := strings.CutPrefix(path, prefix)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}

func (c diffCase) describe(e k0s.Effective, missing []listener) string {
	var b strings.Builder
	fmt.Fprintf(&b, "  document: %s, storage %s, provider %s, guarded\n", c.role.name, c.storage, c.provider)
	for _, m := range c.muts {
		kind := "respelled"
		if m.canonical {
			kind = "canonical"
		}
		fmt.Fprintf(&b, "  %s: %s (at %s)\n", kind, m.what, m.at)
	}
	fmt.Fprintf(&b, "  k0s.patch: %s\n", asJSON(c.patch))
	if len(e.Problems) == 0 {
		b.WriteString("  problems: none\n")
	}
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "  problem at %s: %.120s\n", p.Path, p.Message)
	}
	fmt.Fprintf(&b, "  guarded: %v", e.Ports.Role)
	for _, l := range missing {
		fmt.Fprintf(&b, "\n  unguarded: %s", l)
	}
	return b.String()
}

func asJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSpace(b.String())
}

// keptCase is a fixed document, one per respelling kind: a patch in YAML
// and the paths of the keys respelled or set (none for a canonical one).
type keptCase struct {
	name              string
	role              role
	storage, provider string
	patch             string
	at                []string
}

func (k keptCase) diffCase(t *testing.T) diffCase {
	t.Helper()
	var patch map[string]any
	if err := yamlv3.Unmarshal([]byte(k.patch), &patch); err != nil {
		t.Fatalf("kept case %q: %v", k.name, err)
	}
	c := diffCase{name: k.name, role: k.role, storage: k.storage, provider: k.provider, patch: patch}
	for _, at := range k.at {
		c.muts = append(c.muts, mutation{what: k.name, at: at})
	}
	if len(k.at) == 0 {
		c.muts = []mutation{{what: k.name, at: "spec", canonical: true}}
	}
	return c
}

const (
	etcd       = config.StorageEtcd
	kine       = config.StorageKine
	kubeRouter = config.ProviderKubeRouter
	calico     = config.ProviderCalico
	// kelvin and longS fold to k and s in encoding/json's matching
	// (Unicode's simple folding), not in Felix's strings.ToLower for ſ.
	kelvin = "\u212A"
	longS  = "\u017F"
)

var keptCases = []keptCase{
	// ClusterConfig keys k0s matches without regard to case.
	{"a leaf key in another case", controllerWorker, etcd, kubeRouter, `spec: {api: {Port: 16443}}`, []string{"spec.api.Port"}},
	{"a leaf key in capitals", controllerOnly, etcd, kubeRouter, `spec: {konnectivity: {AGENTPORT: 18132}}`, []string{"spec.konnectivity.AGENTPORT"}},
	{"a leaf key in mixed case", controllerOnly, kine, calico, `spec: {api: {pOrT: 16443}}`, []string{"spec.api.pOrT"}},
	{"a Kelvin sign for k", controllerOnly, etcd, kubeRouter, `spec: {api: {` + kelvin + `0sApiPort: 19443}}`, []string{"spec.api." + kelvin + "0sApiPort"}},
	{"a long s for s", controllerWorker, etcd, kubeRouter, `spec: {network: {kuberouter: {metric` + longS + `Port: 18080}}}`, []string{"spec.network.kuberouter.metric" + longS + "Port"}},
	{"a block key respelled", controllerOnly, etcd, kubeRouter, `spec: {API: {port: 16443}}`, []string{"spec.API"}},
	{"extraArgs respelled", workerOnly, etcd, kubeRouter, `spec: {network: {kuberouter: {ExtraArgs: {metrics-port: "18081"}}}}`, []string{"spec.network.kuberouter.ExtraArgs"}},
	{"rawArgs respelled", controllerWorker, etcd, kubeRouter, `spec: {network: {kuberouter: {RawArgs: ["--health-port=20245"]}}}`, []string{"spec.network.kuberouter.RawArgs"}},
	{"a folded duplicate", controllerOnly, etcd, calico, `spec: {api: {k0sApiPort: 9443, k0sapiport: 19443}}`, []string{"spec.api.k0sapiport"}},
	{"kube-proxy's address respelled", workerOnly, etcd, calico, `spec: {network: {kubeProxy: {MetricsBindAddress: "0.0.0.0:11249"}}}`, []string{"spec.network.kubeProxy.MetricsBindAddress"}},
	{"node-local load balancing respelled", workerOnly, etcd, kubeRouter, `spec: {network: {nodeLocalLoadBalancing: {Enabled: true}}}`, []string{"spec.network.nodeLocalLoadBalancing.Enabled"}},
	{"the network block respelled", controllerWorker, etcd, calico, `spec: {Network: {provider: calico, calico: {vxlanPort: 14789}}}`, []string{"spec.Network"}},

	// Flags as the components read them.
	{"_ in an extraArgs flag", controllerOnly, etcd, kubeRouter, `spec: {controllerManager: {extraArgs: {bind_address: "0.0.0.0"}}}`, []string{"spec.controllerManager.extraArgs"}},
	{"_ in a rawArgs flag", controllerOnly, etcd, kubeRouter, `spec: {api: {rawArgs: ["--secure_port=16443"]}}`, []string{"spec.api.rawArgs"}},
	{"_ in a rawArgs flag, its value apart", controllerWorker, kine, kubeRouter, `spec: {scheduler: {rawArgs: ["--bind_address", "0.0.0.0"]}}`, []string{"spec.scheduler.rawArgs"}},
	{"_ in kube-proxy's flag", workerOnly, etcd, kubeRouter, `spec: {network: {kubeProxy: {extraArgs: {metrics_bind_address: "0.0.0.0:11249"}}}}`, []string{"spec.network.kubeProxy.extraArgs"}},
	{"_ in kine's flag", controllerOnly, kine, kubeRouter, `spec: {storage: {kine: {extraArgs: {metrics_bind_address: ":2390"}}}}`, []string{"spec.storage.kine.extraArgs"}},
	{"one dash in etcd's rawArgs", controllerOnly, etcd, calico, `spec: {storage: {etcd: {rawArgs: ["-listen-peer-urls=https://0.0.0.0:2390"]}}}`, []string{"spec.storage.etcd.rawArgs"}},
	{"one dash in the API server's rawArgs", controllerOnly, etcd, kubeRouter, `spec: {api: {rawArgs: ["-secure-port=16443"]}}`, []string{"spec.api.rawArgs"}},
	{"dashes in an extraArgs key", controllerOnly, etcd, kubeRouter, `spec: {scheduler: {extraArgs: {"--bind-address": "0.0.0.0"}}}`, []string{"spec.scheduler.extraArgs"}},
	{"= in an extraArgs key", controllerOnly, etcd, kubeRouter, `spec: {controllerManager: {extraArgs: {"bind-address=0.0.0.0": ""}}}`, []string{"spec.controllerManager.extraArgs"}},
	{"a listener's flag as spelled", controllerWorker, etcd, kubeRouter, `spec: {controllerManager: {extraArgs: {bind-address: "0.0.0.0"}}}`, []string{"spec.controllerManager.extraArgs"}},

	// Felix's environment.
	{"a Felix variable in lower case", workerOnly, etcd, calico, `spec: {network: {calico: {envVars: {felix_vxlanport: "4790"}}}}`, []string{"spec.network.calico.envVars"}},
	{"a Felix variable in mixed case", controllerWorker, kine, calico, `spec: {network: {calico: {envVars: {Felix_HealthHost: "0.0.0.0"}}}}`, []string{"spec.network.calico.envVars"}},
	{"two Felix variables equal under lower case", workerOnly, etcd, calico, `spec: {network: {calico: {envVars: {FELIX_HEALTHPORT: "9099", felix_healthport: "9199"}}}}`, []string{"spec.network.calico.envVars"}},
	{"envVars respelled", workerOnly, etcd, calico, `spec: {network: {calico: {EnvVars: {FELIX_PROMETHEUSMETRICSPORT: "19091"}}}}`, []string{"spec.network.calico.EnvVars"}},

	// Worker profiles, decoded into the kubelet's configuration.
	{"a profile key in another case", workerOnly, etcd, kubeRouter, `spec: {workerProfiles: [{name: default, values: {ReadOnlyPort: 10255}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"a profile key in capitals", controllerWorker, etcd, calico, `spec: {workerProfiles: [{name: p1, values: {PORT: 10251}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"a profile key with a long s", workerOnly, kine, kubeRouter, `spec: {workerProfiles: [{name: default, values: {healthzBindAddre` + longS + longS + `: "0.0.0.0"}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"values respelled", workerOnly, etcd, kubeRouter, `spec: {workerProfiles: [{name: p1, Values: {readOnlyPort: 10255}}]}`, []string{"spec.workerProfiles[0].Values"}},

	// Patches of the manifests k0s deploys.
	{"patches", workerOnly, etcd, kubeRouter, `spec: {network: {kubeProxy: {patches: [{target: {kind: DaemonSet, name: kube-proxy}, patch: {type: json, content: "[]"}}]}}}`, []string{"spec.network.kubeProxy.patches"}},
	{"patches under a respelled block", controllerWorker, etcd, calico, `spec: {network: {Calico: {patches: [{target: {kind: DaemonSet, name: calico-node}, patch: {type: json, content: "[]"}}]}}}`, []string{"spec.network.Calico"}},

	// A worker's settings in a controller's document.
	{"a profile's listener in a controller-only document", controllerOnly, etcd, kubeRouter, `spec: {workerProfiles: [{name: default, values: {readOnlyPort: 10255}}]}`, []string{"spec.workerProfiles[0].values"}},
	{"Felix's health host in a controller-only document", controllerOnly, etcd, calico, `spec: {network: {calico: {envVars: {FELIX_HEALTHHOST: "0.0.0.0"}}}}`, []string{"spec.network.calico.envVars"}},
	{"a respelled worker setting in a controller-only document", controllerOnly, kine, kubeRouter, `spec: {network: {kuberouter: {MetricsPort: 18080}}}`, []string{"spec.network.kuberouter.MetricsPort"}},

	// Canonical settings the guard follows: never refused.
	{"canonical: the API, join API and konnectivity ports", controllerWorker, etcd, kubeRouter, `spec: {api: {port: 16443, k0sApiPort: 19443}, konnectivity: {agentPort: 18132}}`, nil},
	{"canonical: kube-router's ports", controllerWorker, kine, kubeRouter, `spec: {network: {kuberouter: {metricsPort: 18080, extraArgs: {health-port: "20245"}, rawArgs: ["--bgp-port", "1790"]}}}`, nil},
	{"canonical: calico's VXLAN port and a Felix variable", workerOnly, etcd, calico, `spec: {network: {calico: {vxlanPort: 14789, envVars: {FELIX_LOGSEVERITYSCREEN: warning}}}}`, nil},
	{"canonical: a worker's settings in a controller-only document", controllerOnly, etcd, kubeRouter, `spec: {network: {kuberouter: {metricsPort: 18080}, kubeProxy: {metricsBindAddress: "0.0.0.0:11249"}, nodeLocalLoadBalancing: {enabled: true}}}`, nil},
	{"canonical: a profile's healthz port, on loopback", workerOnly, etcd, calico, `spec: {workerProfiles: [{name: default, values: {healthzPort: 10249, maxPods: 50}}]}`, nil},
	{"canonical: flags that open nothing", controllerOnly, kine, kubeRouter, `spec: {api: {extraArgs: {bind-address: "127.0.0.1"}}, controllerManager: {extraArgs: {secure-port: "10357"}}, scheduler: {rawArgs: ["--v=2"]}, storage: {kine: {extraArgs: {compact-interval: "5m"}}}}`, nil},
}
