package rules

import (
	"errors"
	"strings"
	"testing"
)

// cplb is a valid keepalived block; cases replace one line of it.
const cplb = `apiVersion: k0s.k0sproject.io/v1beta1
kind: ClusterConfig
spec:
  network:
    controlPlaneLoadBalancing:
      enabled: true
      type: Keepalived
      keepalived:
        vrrpInstances:
          - virtualIPs: [192.0.2.100/24]
            interface: eth0
            virtualRouterID: 52
            authPass: vrrpPW1
            unicastSourceIP: 192.0.2.11
            unicastPeers: [192.0.2.12, 192.0.2.13]
`

func withLine(old, repl string) string {
	if !strings.Contains(cplb, old) {
		panic("no line " + old)
	}
	return strings.Replace(cplb, old, repl, 1)
}

const vrrp0 = "spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances[0]."

// configRules is one refusal per rule: the config, the path the problem
// names, and words the message has.
var configRules = []struct {
	name, yaml, path, words string
}{
	// decoding (clusterconfig_types.go:313, 359; strictyaml.go:17)
	{"yaml syntax", "spec: [", "", "yaml:"},
	{"duplicate key", "spec:\n  api: {}\n  api: {}\n", "", `key "api" already set in map`},
	{"not a mapping", "- a\n", "", "cannot unmarshal array into v1beta1.ClusterConfig"},
	{"unknown top-level key", "apiVersion: k0s.k0sproject.io/v1beta1\nkin: ClusterConfig\n", "kin", "unknown field"},
	{"unknown metadata key", "metadata:\n  nmae: x\n", "metadata.nmae", "unknown field"},
	{"unknown spec key", "spec:\n  netwrok: {}\n", "spec.netwrok", "unknown field"},
	{"unknown telemetry key", "spec:\n  telemetry:\n    enable: false\n", "spec.telemetry.enable", "unknown field"},
	{"unknown installConfig key", "spec:\n  installConfig:\n    user: {}\n", "spec.installConfig.user", "unknown field"},
	{"unknown extensions key", "spec:\n  extensions:\n    helm:\n      chart: []\n", "spec.extensions.helm.chart", "unknown field"},
	{"unknown konnectivity key", "spec:\n  konnectivity:\n    port: 1\n", "spec.konnectivity.port", "unknown field"},
	{"unknown featureGates key", "spec:\n  featureGates:\n    - name: X\n      enable: true\n", "spec.featureGates[0].enable", "unknown field"},
	{"unknown workerProfiles key", "spec:\n  workerProfiles:\n    - name: x\n      value: {}\n", "spec.workerProfiles[0].value", "unknown field"},
	{"unknown controllerManager key", "spec:\n  controllerManager:\n    extraArg: {}\n", "spec.controllerManager.extraArg", "unknown field"},
	{"unknown scheduler key", "spec:\n  scheduler:\n    args: []\n", "spec.scheduler.args", "unknown field"},
	{"unknown status key", "status:\n  x: 1\n", "status.x", "unknown field"},
	{"string for an int", "spec:\n  api:\n    port: \"6443\"\n", "spec.api.port", "cannot unmarshal string into a field of type int"},
	{"yaml 1.1 bool for a string", "spec:\n  network:\n    provider: no\n", "spec.network.provider", "cannot unmarshal bool into a field of type string"},
	{"int32 overflow", withLine("virtualRouterID: 52", "virtualRouterID: 4294967296"), vrrp0 + "virtualRouterID", "cannot unmarshal a number outside the range of int32"},
	{"fraction for an int", "spec:\n  network:\n    kuberouter:\n      mtu: 1400.5\n", "spec.network.kuberouter.mtu", "cannot unmarshal a number with a fraction"},
	{"bool for a map value", "spec:\n  network:\n    kuberouter:\n      extraArgs:\n        enable-overlay: true\n", "spec.network.kuberouter.extraArgs.enable-overlay", "cannot unmarshal bool into a field of type string"},
	{"object for a list", withLine("unicastPeers: [192.0.2.12, 192.0.2.13]", "unicastPeers: {a: b}"), vrrp0 + "unicastPeers", "cannot unmarshal object into a field of type []string"},
	{"bad duration", "spec:\n  api:\n    ca:\n      expiresAfter: 10years\n", "spec.api.ca.expiresAfter", "not a duration"},
	{"null duration", "spec:\n  api:\n    ca:\n      expiresAfter: null\n", "spec.api.ca.expiresAfter", "null is not a duration"},
	// api.go
	{"api address not an IP", "spec:\n  api:\n    address: node1\n", "spec.api.address", "invalid IP address"},
	{"api address INADDR_ANY", "spec:\n  api:\n    address: 0.0.0.0\n", "spec.api.address", "invalid INADDR_ANY"},
	{"externalAddress neither IP nor name", "spec:\n  api:\n    externalAddress: \"api example\"\n", "spec.api.externalAddress", "invalid IP address / DNS name"},
	{"externalAddress INADDR_ANY", "spec:\n  api:\n    externalAddress: \"::\"\n", "spec.api.externalAddress", "invalid INADDR_ANY"},
	{"api port out of range", "spec:\n  api:\n    port: 70000\n", "spec.api.port", "must be between 1 and 65535"},
	{"k0sApiPort out of range", "spec:\n  api:\n    k0sApiPort: -1\n", "spec.api.k0sApiPort", "must be between 1 and 65535"},
	{"san neither IP nor name", "spec:\n  api:\n    sans: [ok.example, \"*.example.com\"]\n", "spec.api.sans[1]", "invalid IP address / DNS name"},
	// storage.go
	{"storage type empty", "spec:\n  storage:\n    type: \"\"\n", "spec.storage.type", "required value"},
	{"storage type unknown", "spec:\n  storage:\n    type: sqlite\n", "spec.storage.type", "unsupported value"},
	{"external etcd without endpoints", "spec:\n  storage:\n    etcd:\n      externalCluster:\n        etcdPrefix: k0s\n", "spec.storage.etcd.externalCluster.endpoints", "cannot be null or empty"},
	{"external etcd empty endpoint", "spec:\n  storage:\n    etcd:\n      externalCluster:\n        endpoints: [\"\"]\n        etcdPrefix: k0s\n", "spec.storage.etcd.externalCluster.endpoints", "cannot contain empty strings"},
	{"external etcd without prefix", "spec:\n  storage:\n    etcd:\n      externalCluster:\n        endpoints: [https://e:2379]\n", "spec.storage.etcd.externalCluster.etcdPrefix", "cannot be empty"},
	{"external etcd partial TLS", "spec:\n  storage:\n    etcd:\n      externalCluster:\n        endpoints: [https://e:2379]\n        etcdPrefix: k0s\n        caFile: /ca\n", "spec.storage.etcd.externalCluster", "all TLS properties"},
	// network.go
	{"provider empty", "spec:\n  network:\n    provider: \"\"\n", "spec.network.provider", "required value"},
	{"provider unknown", "spec:\n  network:\n    provider: flannel\n", "spec.network.provider", "unsupported value"},
	{"podCIDR not a CIDR", "spec:\n  network:\n    podCIDR: 10.244.0.0\n", "spec.network.podCIDR", "invalid CIDR address"},
	{"serviceCIDR not a CIDR", "spec:\n  network:\n    serviceCIDR: \"\"\n", "spec.network.serviceCIDR", "invalid CIDR address"},
	{"CIDR families differ", "spec:\n  network:\n    serviceCIDR: fd00::/108\n", "spec.network.podCIDR", "must be both IPv4 or IPv6"},
	{"IPv6 service CIDR too small", "spec:\n  network:\n    podCIDR: fd01::/48\n    serviceCIDR: fd00::/112\n", "spec.network.serviceCIDR", "prefix must be <= 108"},
	{"IPv6 single stack without the gate", "spec:\n  network:\n    podCIDR: fd01::/48\n    serviceCIDR: fd00::/108\n", "spec.network.podCIDR", "IPv6SingleStack must be explicitly enabled"},
	{"clusterDomain not a name", "spec:\n  network:\n    clusterDomain: \"corp local\"\n", "spec.network.clusterDomain", "invalid DNS name"},
	{"dual-stack calico not bird", "spec:\n  network:\n    provider: calico\n    dualStack:\n      enabled: true\n      IPv6podCIDR: fd01::/48\n      IPv6serviceCIDR: fd00::/108\n", "spec.network.calico.mode", "only supported for mode `bird`"},
	{"dual-stack pod CIDR missing", "spec:\n  network:\n    dualStack:\n      enabled: true\n      IPv6serviceCIDR: fd00::/108\n", "spec.network.dualStack.IPv6podCIDR", "invalid CIDR address"},
	{"dual-stack pod CIDR IPv4", "spec:\n  network:\n    dualStack:\n      enabled: true\n      IPv6podCIDR: 10.0.0.0/16\n      IPv6serviceCIDR: fd00::/108\n", "spec.network.dualStack.IPv6podCIDR", "must be an IPv6 CIDR"},
	{"dual-stack service CIDR missing", "spec:\n  network:\n    dualStack:\n      enabled: true\n      IPv6podCIDR: fd01::/48\n", "spec.network.dualStack.IPv6serviceCIDR", "invalid CIDR address"},
	{"dual-stack service CIDR IPv4", "spec:\n  network:\n    dualStack:\n      enabled: true\n      IPv6podCIDR: fd01::/48\n      IPv6serviceCIDR: 10.1.0.0/16\n", "spec.network.dualStack.IPv6serviceCIDR", "must be an IPv6 CIDR"},
	// network.go:158-160 refuses more than 20 host bits, which is what
	// the message means; the single-stack rule above (network.go:121-124)
	// refuses the opposite, a prefix longer than /108.
	{"dual-stack service CIDR too large", "spec:\n  network:\n    dualStack:\n      enabled: true\n      IPv6podCIDR: fd01::/48\n      IPv6serviceCIDR: fd00::/64\n", "spec.network.dualStack.IPv6serviceCIDR", "prefix must be <= 108"},
	{"dual-stack pod CIDR IPv6", "spec:\n  network:\n    podCIDR: fd02::/48\n    serviceCIDR: fd03::/108\n    dualStack:\n      enabled: true\n      IPv6podCIDR: fd01::/48\n      IPv6serviceCIDR: fd00::/108\n", "spec.network.podCIDR", "podCIDR must be IPv4"},
	{"dual-stack service CIDR IPv6", "spec:\n  network:\n    podCIDR: fd02::/48\n    serviceCIDR: fd03::/108\n    dualStack:\n      enabled: true\n      IPv6podCIDR: fd01::/48\n      IPv6serviceCIDR: fd00::/108\n", "spec.network.serviceCIDR", "serviceCIDR must be IPv4"},
	{"primary address family", "spec:\n  network:\n    primaryAddressFamily: ipv4\n", "spec.network.primaryAddressFamily", "unsupported value"},
	{"kube-proxy mode", "spec:\n  network:\n    kubeProxy:\n      mode: nft\n", "spec.network.kubeProxy.mode", "unsupported mode"},
	{"kube-proxy healthz address", "spec:\n  network:\n    kubeProxy:\n      healthzBindAddress: 0.0.0.0\n", "spec.network.kubeProxy.healthzBindAddress", "missing port"},
	{"kube-proxy metrics address", "spec:\n  network:\n    kubeProxy:\n      metricsBindAddress: \"0.0.0.0:99999\"\n", "spec.network.kubeProxy.metricsBindAddress", "port is out of range"},
	{"calico mode empty", "spec:\n  network:\n    provider: calico\n    calico:\n      mode: \"\"\n", "spec.network.calico.mode", "required value"},
	{"calico mode unknown", "spec:\n  network:\n    provider: calico\n    calico:\n      mode: ipipcrosssubnet\n", "spec.network.calico.mode", "unsupported value"},
	{"patch type", "spec:\n  network:\n    kuberouter:\n      patches:\n        - target: {kind: DaemonSet, name: kube-router}\n          patch: {type: json, content: \"[]\"}\n", "spec.network.kuberouter.patches[0].patch.type", "invalid type"},
	{"patch target kind", "spec:\n  network:\n    coreDNS:\n      patches:\n        - target: {name: coredns}\n          patch: {type: JSON, content: \"[]\"}\n", "spec.network.coreDNS.patches[0].target.kind", "required value"},
	{"patch target name", "spec:\n  metricsServer:\n    patches:\n      - target: {kind: Deployment}\n        patch: {type: MergePatch, content: \"{}\"}\n", "spec.metricsServer.patches[0].target.name", "required value"},
	// nllb.go, clusterconfig_types.go:477-494
	{"nllb type", "spec:\n  network:\n    nodeLocalLoadBalancing:\n      type: HAProxy\n", "spec.network.nodeLocalLoadBalancing.type", "unsupported value"},
	{"nllb pull policy", "spec:\n  network:\n    nodeLocalLoadBalancing:\n      envoyProxy:\n        imagePullPolicy: Sometimes\n", "spec.network.nodeLocalLoadBalancing.envoyProxy.imagePullPolicy", "unsupported value"},
	{"nllb api port", "spec:\n  network:\n    nodeLocalLoadBalancing:\n      envoyProxy:\n        apiServerBindPort: 70000\n", "spec.network.nodeLocalLoadBalancing.envoyProxy.apiServerBindPort", "must be between 1 and 65535"},
	{"nllb konnectivity port zero", "spec:\n  network:\n    nodeLocalLoadBalancing:\n      envoyProxy:\n        konnectivityServerBindPort: 0\n", "spec.network.nodeLocalLoadBalancing.envoyProxy.konnectivityServerBindPort", "must be between 1 and 65535"},
	{"nllb image version", "spec:\n  network:\n    nodeLocalLoadBalancing:\n      envoyProxy:\n        image: {version: \"v1 beta\"}\n", "spec.network.nodeLocalLoadBalancing.envoyProxy.image.version", "must match regular expression"},
	{"nllb with externalAddress", "spec:\n  api:\n    externalAddress: api.example.com\n  network:\n    nodeLocalLoadBalancing:\n      enabled: true\n", "spec.network.nodeLocalLoadBalancing.enabled", "cannot be used in conjunction with an external Kubernetes API server address"},
	// cplb.go
	{"cplb type", withLine("type: Keepalived", "type: HAProxy"), "spec.network.controlPlaneLoadBalancing.type", "unsupported CPLB type"},
	{"virtualRouterID range", withLine("virtualRouterID: 52", "virtualRouterID: 256"), vrrp0 + "virtualRouterID", "range of 1-255"},
	{"addressLabel reserved", withLine("virtualRouterID: 52", "virtualRouterID: 52\n            addressLabel: 4294967295"), vrrp0 + "addressLabel", "0xffffffff is reserved"},
	{"authPass missing", withLine("authPass: vrrpPW1", "advertIntervalSeconds: 1"), vrrp0 + "authPass", "authPass must be defined"},
	{"authPass too long", withLine("authPass: vrrpPW1", "authPass: ninechars"), vrrp0 + "authPass", "authPass is longer than 8 characters"},
	{"virtualIPs missing", withLine("- virtualIPs: [192.0.2.100/24]", "- virtualIPs: []"), vrrp0 + "virtualIPs", "virtualIPs must be defined"},
	{"virtualIP not a CIDR", withLine("- virtualIPs: [192.0.2.100/24]", "- virtualIPs: [192.0.2.100]"), vrrp0 + "virtualIPs[0]", "virtualIPs must be a CIDR"},
	{"unicastPeers without unicastSourceIP", withLine("unicastSourceIP: 192.0.2.11", "advertIntervalSeconds: 1"), vrrp0 + "unicastSourceIP", "unicastPeers require a valid unicastSourceIP"},
	{"unicast peer not an IP", withLine("unicastPeers: [192.0.2.12, 192.0.2.13]", "unicastPeers: [192.0.2.12, c3.example]"), vrrp0 + "unicastPeers[1]", "unicastPeers require valid IP addresses"},
	{"unicast peers hold the source", withLine("unicastPeers: [192.0.2.12, 192.0.2.13]", "unicastPeers: [192.0.2.11, 192.0.2.12]"), vrrp0 + "unicastPeers[0]", "must not contain the unicastSourceIP"},
	{"userspace proxy port", withLine("      keepalived:\n", "      keepalived:\n        userSpaceProxyBindPort: 65536\n"), "spec.network.controlPlaneLoadBalancing.keepalived.userSpaceProxyBindPort", "range of 1-65535"},
	{"virtual server address missing", withLine("      keepalived:\n", "      keepalived:\n        virtualServers: [{lbAlgo: rr}]\n"), "spec.network.controlPlaneLoadBalancing.keepalived.virtualServers[0].ipAddress", "ipAddress must be defined"},
	{"virtual server address not an IP", withLine("      keepalived:\n", "      keepalived:\n        virtualServers: [{ipAddress: vip.example}]\n"), "spec.network.controlPlaneLoadBalancing.keepalived.virtualServers[0].ipAddress", "invalid IP address"},
	{"virtual server lbAlgo", withLine("      keepalived:\n", "      keepalived:\n        virtualServers: [{ipAddress: 192.0.2.100, lbAlgo: random}]\n"), "spec.network.controlPlaneLoadBalancing.keepalived.virtualServers[0].lbAlgo", "invalid lbAlgo"},
	{"virtual server lbKind", withLine("      keepalived:\n", "      keepalived:\n        virtualServers: [{ipAddress: 192.0.2.100, lbKind: dr}]\n"), "spec.network.controlPlaneLoadBalancing.keepalived.virtualServers[0].lbKind", "invalid lbKind"},
	{"virtual server persistence", withLine("      keepalived:\n", "      keepalived:\n        virtualServers: [{ipAddress: 192.0.2.100, persistenceTimeoutSeconds: -5}]\n"), "spec.network.controlPlaneLoadBalancing.keepalived.virtualServers[0].persistenceTimeoutSeconds", "range of 1-2678400"},
	{"virtual server delay loop", withLine("      keepalived:\n", "      keepalived:\n        virtualServers: [{ipAddress: 192.0.2.100, delayLoop: -1s}]\n"), "spec.network.controlPlaneLoadBalancing.keepalived.virtualServers[0].delayLoop", "delayLoop must be positive"},
	// konnectivity.go, extensions.go, workerprofile.go, images.go
	{"konnectivity port zero", "spec:\n  konnectivity:\n    agentPort: 0\n", "spec.konnectivity.agentPort", "must be between 1 and 65535"},
	{"helm repository name", "spec:\n  extensions:\n    helm:\n      repositories: [{url: https://charts.example}]\n", "spec.extensions.helm.repositories[0].name", "Name field not empty"},
	{"helm repository url", "spec:\n  extensions:\n    helm:\n      repositories: [{name: x}]\n", "spec.extensions.helm.repositories[0].url", "URL field not empty"},
	{"helm chart name", "spec:\n  extensions:\n    helm:\n      charts: [{chartname: x/y, namespace: ns}]\n", "spec.extensions.helm.charts[0].name", "Name field not empty"},
	{"helm chart release name", "spec:\n  extensions:\n    helm:\n      charts: [{name: My_Chart, chartname: x/y, namespace: ns}]\n", "spec.extensions.helm.charts[0].name", "invalid release name"},
	{"helm chart chartname", "spec:\n  extensions:\n    helm:\n      charts: [{name: a, namespace: ns}]\n", "spec.extensions.helm.charts[0].chartname", "ChartName field not empty"},
	{"helm chart namespace", "spec:\n  extensions:\n    helm:\n      charts: [{name: a, chartname: x/y}]\n", "spec.extensions.helm.charts[0].namespace", "TargetNS field not empty"},
	{"helm chart timeout", "spec:\n  extensions:\n    helm:\n      charts: [{name: a, chartname: x/y, namespace: ns, timeout: soon}]\n", "spec.extensions.helm.charts[0].timeout", "not a duration"},
	{"worker profile name", "spec:\n  workerProfiles:\n    - values: {}\n", "spec.workerProfiles[0].name", "required value"},
	{"worker profile name syntax", "spec:\n  workerProfiles:\n    - name: Big\n", "spec.workerProfiles[0].name", "RFC 1123 label"},
	{"worker profile values not an object", "spec:\n  workerProfiles:\n    - name: big\n      values: [1]\n", "spec.workerProfiles[0].values", "cannot unmarshal array"},
	{"worker profile apiVersion", "spec:\n  workerProfiles:\n    - name: big\n      values: {apiVersion: kubelet.config.k8s.io/v1}\n", "spec.workerProfiles[0].values.apiVersion", "expected"},
	{"worker profile kind", "spec:\n  workerProfiles:\n    - name: big\n      values: {kind: Kubelet}\n", "spec.workerProfiles[0].values.kind", "expected"},
	{"worker profile clusterDNS", "spec:\n  workerProfiles:\n    - name: big\n      values: {clusterDNS: [10.96.0.10]}\n", "spec.workerProfiles[0].values.clusterDNS", "may not be used in k0s worker profiles"},
	{"worker profile clusterDomain", "spec:\n  workerProfiles:\n    - name: big\n      values: {clusterDomain: x}\n", "spec.workerProfiles[0].values.clusterDomain", "may not be used in k0s worker profiles"},
	{"worker profile staticPodURL", "spec:\n  workerProfiles:\n    - name: big\n      values: {staticPodURL: http://x}\n", "spec.workerProfiles[0].values.staticPodURL", "may not be used in k0s worker profiles"},
	{"images pull policy", "spec:\n  images:\n    default_pull_policy: Sometimes\n", "spec.images.default_pull_policy", "unsupported value"},
	{"image name empty", "spec:\n  images:\n    coredns: {image: \"\"}\n", "spec.images.coredns.image", "required value"},
	{"image name whitespace", "spec:\n  images:\n    calico:\n      node: {image: \" quay.io/calico/node\"}\n", "spec.images.calico.node.image", "leading or trailing whitespace"},
	{"image version", "spec:\n  images:\n    kuberouter:\n      cni: {version: \"\"}\n", "spec.images.kuberouter.cni.version", "must match regular expression"},
}

func TestConfigRules(t *testing.T) {
	for _, tc := range configRules {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckClusterConfig([]byte(tc.yaml))
			var ps Problems
			if !errors.As(err, &ps) {
				t.Fatalf("accepted, want a refusal at %q naming %q", tc.path, tc.words)
			}
			for _, p := range ps {
				if p.Path == tc.path && strings.Contains(p.Message, tc.words) {
					if p.Source == "" {
						t.Errorf("%v: no k0s source", p)
					}
					return
				}
			}
			t.Errorf("want a problem at %q naming %q, got:\n%v", tc.path, tc.words, err)
		})
	}
}

// TestConfigRulesBaseIsValid is the control for the table above: the
// documents the cases edit pass as they are.
func TestConfigRulesBaseIsValid(t *testing.T) {
	for name, doc := range map[string]string{
		"empty file":  "",
		"cplb":        cplb,
		"only a name": "apiVersion: k0s.k0sproject.io/v1beta1\nkind: ClusterConfig\nmetadata:\n  name: k0s\n",
		// What the agent writes for storage.type kine: the resolved URL,
		// whatever it holds; k0s checks no dataSource (storage.go:115-134).
		"kine on postgres": "spec:\n  storage:\n    type: kine\n    kine:\n      dataSource: \"postgres://k0s:p%40ss:w0rd@db.example:5432/k0s?sslmode=verify-full&sslrootcert=/etc/ssl/db.pem\"\n",
		"kine on mysql":    "spec:\n  storage: {type: kine, kine: {dataSource: \"mysql://k0s:pw@tcp(db.example:3306)/k0s\", extraArgs: {slow-sql-threshold: 2s}}}\n",
		"rich": `apiVersion: k0s.k0sproject.io/v1beta1
kind: ClusterConfig
metadata: {name: lab, labels: {a: b}}
spec:
  api: {address: 192.0.2.10, externalAddress: "api.example.com:6443", port: 6443, k0sApiPort: 9443, sans: [api.example.com, 192.0.2.10, "2001:db8::1"], extraArgs: {v: "2"}}
  storage: {type: kine, kine: {dataSource: "sqlite:///var/lib/k0s/db/state.db"}}
  network:
    provider: calico
    podCIDR: 10.244.0.0/16
    serviceCIDR: 10.96.0.0/12
    clusterDomain: cluster.local
    dualStack: {enabled: true, IPv6podCIDR: "fd00::/108", IPv6serviceCIDR: "fd01::/108"}
    calico: {mode: bird, mtu: 1400, overlay: Always, wireguard: yes}
    kubeProxy: {mode: ipvs, ipvs: {syncPeriod: 30s}}
    nodeLocalLoadBalancing: {enabled: false, type: EnvoyProxy, envoyProxy: {apiServerBindPort: 7443}}
  telemetry: {enabled: false}
  konnectivity: {agentPort: 8132, adminPort: 8133}
  extensions: {helm: {repositories: [{name: r, url: "https://charts.example"}], charts: [{name: c, chartname: r/c, namespace: ns, timeout: 10m}, {name: d, chartname: r/d, namespace: ns, timeout: 60000000000}]}}
  workerProfiles: [{name: big, values: {maxPods: 250}}]
  featureGates: [{name: SomeGate, enabled: true, components: [kubelet]}]
  images: {default_pull_policy: Always, coredns: {version: "1.12.0"}}
  controllerManager: {extraArgs: {a: b}}
  scheduler: {rawArgs: [--v=2]}
  installConfig: {users: {etcdUser: etcd}}
`,
	} {
		if err := CheckClusterConfig([]byte(doc)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestDecodingLikeK0s covers how k0s's decoder differs from a strict one.
func TestDecodingLikeK0s(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		dropped    []string
	}{
		// Below spec.network, spec.api, spec.storage and spec.images k0s
		// decodes with a plain json.Unmarshal (network.go:249, api.go:193,
		// storage.go:98, images.go:78): unknown keys are dropped.
		{"lenient network", "spec:\n  network:\n    controlPlaneLoadBalancing:\n      keepalived:\n        vrrpInstances:\n          - authPass: x\n            virtualIPs: [192.0.2.1/24]\n            unicastSource: 192.0.2.2\n", []string{"spec.network.controlPlaneLoadBalancing.keepalived.vrrpInstances[0].unicastSource"}},
		{"lenient api", "spec:\n  api:\n    adress: 192.0.2.1\n", []string{"spec.api.adress"}},
		{"lenient storage", "spec:\n  storage:\n    etcd:\n      peerAdress: 192.0.2.1\n", []string{"spec.storage.etcd.peerAdress"}},
		// A forgiven key coming first forgives the rest (strictyaml.go:20-26).
		{"masked interval", "spec:\n  telemetry:\n    interval: 10m\n  workerProfiles:\n    - name: x\n      valuez: {}\n", []string{"spec.telemetry.interval", "spec.workerProfiles[0].valuez"}},
		// encoding/json matches keys case-insensitively.
		{"case-insensitive keys", "Spec:\n  Network:\n    PODCIDR: 10.1.0.0/16\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := CheckClusterConfig([]byte(tc.yaml)); err != nil {
				t.Errorf("refused: %v", err)
			}
			if got := DroppedKeys([]byte(tc.yaml)); strings.Join(got, ",") != strings.Join(tc.dropped, ",") {
				t.Errorf("dropped %v, want %v", got, tc.dropped)
			}
		})
	}
	// The forgiveness applies only when the forgiven key comes first, in
	// JSON's sorted key order: here spec.api's type error comes first.
	err := CheckClusterConfig([]byte("spec:\n  api:\n    port: x\n  telemetry:\n    interval: 10m\n"))
	if err == nil || !strings.Contains(err.Error(), "spec.api.port") || strings.Contains(err.Error(), "interval") {
		t.Errorf("a type error before a forgiven key: %v", err)
	}
	// Case-insensitive keys decode into the field: this podCIDR is checked.
	if err := CheckClusterConfig([]byte("spec:\n  network:\n    podcidr: nope\n")); err == nil || !strings.Contains(err.Error(), "spec.network.podCIDR") {
		t.Errorf("podcidr: %v", err)
	}
}

// TestAuthPassNeverInMessages: a too-long password is named, never shown.
func TestAuthPassNeverInMessages(t *testing.T) {
	const secret = "s3cret-vrrp-pass"
	err := CheckClusterConfig([]byte(withLine("authPass: vrrpPW1", "authPass: "+secret)))
	if err == nil {
		t.Fatal("a 16-character authPass was accepted")
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("the message shows the password: %v", err)
	}
}
