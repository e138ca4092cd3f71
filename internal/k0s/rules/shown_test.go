package rules

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
)

// markers fills a case's placeholders, each with a value of its own: {M}
// with a word (Mk07zq), {N} with a number (9876540701); {R} repeats the
// last one, for a key set twice or an anchor's name. A message that
// quotes any part of a value (time's "unknown unit", strconv's "parsing")
// quotes the marker's core, which the test looks for.
type markers struct{ all []string }

var placeholderRe = regexp.MustCompile(`\{[MNR]\}`)

func (m *markers) fill(s string) string {
	return placeholderRe.ReplaceAllStringFunc(s, func(p string) string {
		if p == "{R}" {
			return m.all[len(m.all)-1]
		}
		n := len(m.all) + 1
		v := fmt.Sprintf("Mk%02dzq", n)
		if p == "{N}" {
			v = fmt.Sprintf("987654%02d01", n)
		}
		m.all = append(m.all, v)
		return v
	})
}

// markedDocuments put a marker in every scalar position the rules can refuse:
// the value that is wrong is the one that may be a secret pasted into
// k0s.patch. path is where the refusal must be, so each case is a real
// failure at its marker.
var markedDocuments = []struct{ name, doc, path string }{
	// decoding (clusterconfig_types.go:313, 359)
	{"timestamp", `metadata: {creationTimestamp: "{M}"}`, "metadata.creationTimestamp"},
	{"timestamp with a date", `metadata: {deletionTimestamp: "2024-01-01T{M}"}`, "metadata.deletionTimestamp"},
	{"managed fields time", `metadata: {managedFields: [{time: "{M}"}]}`, "metadata.managedFields[0].time"},
	{"duration", `spec: {network: {kubeProxy: {iptables: {syncPeriod: "{M}"}}}}`, "spec.network.kubeProxy.iptables.syncPeriod"},
	{"duration with a bad unit", `spec: {network: {kubeProxy: {ipvs: {tcpTimeout: "5{M}"}}}}`, "spec.network.kubeProxy.ipvs.tcpTimeout"},
	{"duration too long", `spec: {api: {ca: {expiresAfter: "{N}{N}{N}h"}}}`, "spec.api.ca.expiresAfter"},
	{"compat duration", `spec: {extensions: {helm: {charts: [{name: a, chartname: r/a, namespace: ns, timeout: "{M}"}]}}}`, "spec.extensions.helm.charts[0].timeout"},
	{"string for an int", `spec: {api: {port: "{M}"}}`, "spec.api.port"},
	{"string for a bool", `spec: {telemetry: {enabled: "{M}"}}`, "spec.telemetry.enabled"},
	{"number for a string", `spec: {network: {provider: {N}}}`, "spec.network.provider"},
	{"int32 overflow", `spec: {network: {kubeProxy: {nftables: {masqueradeBit: {N}}}}}`, "spec.network.kubeProxy.nftables.masqueradeBit"},
	{"uint32 overflow", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{addressLabel: {N}}]}}}}`, "spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances[0].addressLabel"},
	{"fraction for an int", `spec: {network: {kuberouter: {mtu: 1400.{N}}}}`, "spec.network.kuberouter.mtu"},
	{"huge float for an int", `spec: {network: {calico: {mtu: {N}e30}}}`, "spec.network.calico.mtu"},
	{"negative for a uint32", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{addressLabel: -{N}}]}}}}`, "spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances[0].addressLabel"},
	{"map for a list", `spec: {api: {sans: {"{M}": "{M}"}}}`, "spec.api.sans"},
	{"list for a map", `spec: {api: ["{M}"]}`, "spec.api"},
	{"scalar for a list item", `spec: {workerProfiles: ["{M}"]}`, "spec.workerProfiles[0]"},
	{"number in a string list", `spec: {api: {sans: [{N}]}}`, "spec.api.sans[0]"},
	{"map in a string map", `spec: {api: {extraArgs: {v: ["{M}"]}}}`, "spec.api.extraArgs.v"},
	{"secret as a string map key", `spec: {api: {extraArgs: {"{M}": ["{M}"]}}}`, "spec.api.extraArgs.<key>"},
	{"secret as an unknown key", `spec: {"{M}": 1}`, "spec.<key>"},
	{"secret glued to a key", `spec: {telemetry: {"enabled {M}": true}}`, "spec.telemetry.<key>"},
	{"not a mapping", `"{M}"`, ""},
	{"worker profile values", `spec: {workerProfiles: [{name: big, values: "{M}"}]}`, "spec.workerProfiles[0].values"},
	// yaml (strictyaml.go:17)
	{"secret as a repeated key", "spec:\n  {M}: 1\n  {R}: 2\n", ""},
	{"alias of an unknown anchor", "spec: *{M}\n", ""},
	{"anchor referring to itself", "spec: &{M} [*{R}]\n", ""},
	{"unterminated quote", "spec: {api: {address: \"{M}\n", ""},
	// api.go
	{"api address", `spec: {api: {address: "{M}"}}`, "spec.api.address"},
	{"api address INADDR_ANY", `spec: {api: {address: "0.0.0.0"}, storage: {type: "{M}"}}`, "spec.api.address"},
	{"externalAddress", `spec: {api: {externalAddress: "{M} x:6443"}}`, "spec.api.externalAddress"},
	{"san", `spec: {api: {sans: ["{M} x"]}}`, "spec.api.sans[0]"},
	{"api port", `spec: {api: {port: {N}}}`, "spec.api.port"},
	// storage.go
	{"storage type", `spec: {storage: {type: "{M}"}}`, "spec.storage.type"},
	// network.go, kubeproxy.go, patches.go
	{"provider", `spec: {network: {provider: "{M}"}}`, "spec.network.provider"},
	{"pod CIDR", `spec: {network: {podCIDR: "{M}"}}`, "spec.network.podCIDR"},
	{"service CIDR", `spec: {network: {serviceCIDR: "10.{N}.0.0/12"}}`, "spec.network.serviceCIDR"},
	{"dual-stack CIDRs", `spec: {network: {dualStack: {enabled: true, IPv6podCIDR: "{M}", IPv6serviceCIDR: "{M}"}}}`, "spec.network.dualStack.IPv6podCIDR"},
	{"cluster domain", `spec: {network: {clusterDomain: "{M} x"}}`, "spec.network.clusterDomain"},
	{"primary address family", `spec: {network: {primaryAddressFamily: "{M}"}}`, "spec.network.primaryAddressFamily"},
	{"kube-proxy mode", `spec: {network: {kubeProxy: {mode: "{M}"}}}`, "spec.network.kubeProxy.mode"},
	{"kube-proxy healthz port", `spec: {network: {kubeProxy: {healthzBindAddress: "0.0.0.0:{M}"}}}`, "spec.network.kubeProxy.healthzBindAddress"},
	{"kube-proxy metrics port", `spec: {network: {kubeProxy: {metricsBindAddress: "0.0.0.0:{N}"}}}`, "spec.network.kubeProxy.metricsBindAddress"},
	{"kube-proxy metrics host", `spec: {network: {kubeProxy: {metricsBindAddress: "{M} x:1"}}}`, "spec.network.kubeProxy.metricsBindAddress"},
	{"kube-proxy address without port", `spec: {network: {kubeProxy: {metricsBindAddress: "{M}"}}}`, "spec.network.kubeProxy.metricsBindAddress"},
	{"kube-proxy address with colons", `spec: {network: {kubeProxy: {metricsBindAddress: "{M}:{M}:1"}}}`, "spec.network.kubeProxy.metricsBindAddress"},
	{"calico mode", `spec: {network: {provider: calico, calico: {mode: "{M}"}}}`, "spec.network.calico.mode"},
	{"patch type", `spec: {network: {coreDNS: {patches: [{target: {kind: D, name: d}, patch: {type: "{M}"}}]}}}`, "spec.network.coreDNS.patches[0].patch.type"},
	// nllb.go
	{"nllb type", `spec: {network: {nodeLocalLoadBalancing: {type: "{M}"}}}`, "spec.network.nodeLocalLoadBalancing.type"},
	{"nllb pull policy", `spec: {network: {nodeLocalLoadBalancing: {envoyProxy: {imagePullPolicy: "{M}"}}}}`, "spec.network.nodeLocalLoadBalancing.envoyProxy.imagePullPolicy"},
	{"nllb image version", `spec: {network: {nodeLocalLoadBalancing: {envoyProxy: {image: {version: "{M} x"}}}}}`, "spec.network.nodeLocalLoadBalancing.envoyProxy.image.version"},
	{"nllb port", `spec: {network: {nodeLocalLoadBalancing: {traefik: {apiServerBindPort: {N}}}}}`, "spec.network.nodeLocalLoadBalancing.traefik.apiServerBindPort"},
	// cplb.go
	{"cplb type", `spec: {network: {controlPlaneLoadBalancing: {type: "{M}"}}}`, "spec.network.controlPlaneLoadBalancing.type"},
	{"virtual IP", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{authPass: x, virtualIPs: ["{M}"]}]}}}}`, vrrp0 + "virtualIPs[0]"},
	{"unicast source", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{authPass: x, virtualIPs: [192.0.2.1/24], unicastSourceIP: "{M}", unicastPeers: ["{M}"]}]}}}}`, vrrp0 + "unicastSourceIP"},
	{"unicast peer", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{authPass: x, virtualIPs: [192.0.2.1/24], unicastSourceIP: 192.0.2.2, unicastPeers: ["{M}"]}]}}}}`, vrrp0 + "unicastPeers[0]"},
	{"auth pass", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{authPass: "{M}{M}", virtualIPs: [192.0.2.1/24]}]}}}}`, vrrp0 + "authPass"},
	{"virtual router ID", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {vrrpInstances: [{virtualRouterID: {N}, authPass: x, virtualIPs: [192.0.2.1/24]}]}}}}`, vrrp0 + "virtualRouterID"},
	{"virtual server", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {virtualServers: [{ipAddress: "{M}", lbAlgo: "{M}", lbKind: "{M}", delayLoop: "-{N}us", persistenceTimeoutSeconds: {N}}]}}}}`, "spec.network.controlPlaneLoadBalancing.keepalived.virtualServers[0].ipAddress"},
	{"userspace proxy port", `spec: {network: {controlPlaneLoadBalancing: {keepalived: {userSpaceProxyBindPort: {N}}}}}`, "spec.network.controlPlaneLoadBalancing.keepalived.userSpaceProxyBindPort"},
	// konnectivity.go, extensions.go, workerprofile.go, images.go
	{"konnectivity port", `spec: {konnectivity: {agentPort: {N}}}`, "spec.konnectivity.agentPort"},
	{"helm release name", `spec: {extensions: {helm: {charts: [{name: "{M}", chartname: r/a, namespace: ns}]}}}`, "spec.extensions.helm.charts[0].name"},
	{"worker profile name", `spec: {workerProfiles: [{name: "{M}"}]}`, "spec.workerProfiles[0].name"},
	{"worker profile kubelet kind", `spec: {workerProfiles: [{name: big, values: {apiVersion: "{M}", kind: "{M}"}}]}`, "spec.workerProfiles[0].values.apiVersion"},
	{"images pull policy", `spec: {images: {default_pull_policy: "{M}"}}`, "spec.images.default_pull_policy"},
	{"image version", `spec: {images: {coredns: {version: "{M} x"}}}`, "spec.images.coredns.version"},
}

// TestProblemsQuoteNoValue: whatever the rules refuse in a document, its
// problems name the field and never show the value, nor a key that may be
// one.
func TestProblemsQuoteNoValue(t *testing.T) {
	for _, tc := range markedDocuments {
		t.Run(tc.name, func(t *testing.T) {
			m := &markers{}
			doc := m.fill(tc.doc)
			if len(m.all) == 0 {
				t.Fatalf("no marker in %s", tc.doc)
			}
			err := CheckClusterConfig([]byte(doc))
			checkRefusedWithoutMarkers(t, err, tc.path, m.all, doc)
		})
	}
}

// markedArgs are command lines with a marker in every value a flag's type
// refuses, in the arguments and in flag names: the install line carries
// labels and taints, and the unit's a join token.
var markedArgs = []struct{ name, args, path string }{
	{"bool", "install controller --enable-worker={M}", "--enable-worker"},
	{"int", "install controller --k0s-cloud-provider-port={M}", "--k0s-cloud-provider-port"},
	{"int out of range", "install controller --k0s-cloud-provider-port={N}{N}", "--k0s-cloud-provider-port"},
	{"duration", "install controller --k0s-cloud-provider-update-frequency=5{M}", "--k0s-cloud-provider-update-frequency"},
	{"positive duration", "install controller --api-server-stop-timeout=-{N}s", "--api-server-stop-timeout"},
	{"csv", `install worker --taints=a"{M}`, "--taints"},
	{"logging component", "install worker --logging={M}=1", "--logging"},
	{"logging format", "install worker --logging={M}", "--logging"},
	{"logging empty component", "install worker --logging==1{M}", "--logging"},
	{"feature gate name", "install controller --feature-gates={M}=true", "--feature-gates"},
	{"feature gate format", "install controller --feature-gates={M}", "--feature-gates"},
	{"feature gate value", "install controller --feature-gates=IPv6SingleStack={M}", "--feature-gates"},
	{"feature gate empty key", "install controller --feature-gates==true{M}", "--feature-gates"},
	{"subcommand", "install {M}", ""},
	{"positional", "install controller {M}", ""},
	{"unknown flag", "install controller --{M}=x", "--<flag>"},
	{"bad flag syntax", "install controller ---{M}", "--<flag>"},
	{"unknown shorthand", "install controller -x{M}", "-x"},
	{"unknown digit shorthand", "install controller -9{M}", "-<flag>"},
}

func TestArgProblemsQuoteNoValue(t *testing.T) {
	for _, tc := range markedArgs {
		t.Run(tc.name, func(t *testing.T) {
			m := &markers{}
			args := argv(m.fill(tc.args))
			checkRefusedWithoutMarkers(t, CheckInstall(args, []byte("spec: {}\n")), tc.path, m.all, strings.Join(args, " "))
		})
	}
	m := &markers{}
	args := argv(m.fill("controller --disable-components=helm,{M}"))
	t.Run("disabled component", func(t *testing.T) {
		checkRefusedWithoutMarkers(t, CheckStart(args, nil), "--disable-components", m.all, strings.Join(args, " "))
	})
}

func checkRefusedWithoutMarkers(t *testing.T, err error, path string, marks []string, input string) {
	t.Helper()
	var ps Problems
	if !errors.As(err, &ps) {
		t.Fatalf("accepted, want a refusal at %q:\n%s", path, input)
	}
	atPath := false
	for _, p := range ps {
		atPath = atPath || p.Path == path
		for _, mk := range marks {
			if strings.Contains(p.Path, mk) || strings.Contains(p.Message, mk) {
				t.Errorf("the problem shows the value %s: %v", mk, p)
			}
		}
		if p.Source == "" {
			t.Errorf("%v: no k0s source", p)
		}
	}
	if !atPath {
		t.Errorf("no problem at %q, got:\n%v", path, err)
	}
}
