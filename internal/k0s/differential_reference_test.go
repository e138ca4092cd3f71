package k0s_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	kubeletv1beta1 "k8s.io/kubelet/config/v1beta1"
	"sigs.k8s.io/yaml"
)

// The ClusterConfig as k0s v1.36.3+k0s.0 decodes it, the parts that carry
// listener settings: each struct is written from the json tags of the
// type it names (pkg/apis/k0s/v1beta1, file and line at the tag), and
// decoded with sigs.k8s.io/yaml as k0s's ConfigFromBytes does
// (clusterconfig_types.go:307-313, internal/pkg/strictyaml/strictyaml.go:17:
// yaml.UnmarshalStrict, whose JSON decoding matches keys to json tags
// exactly first, then without regard to case). Unknown fields are not
// refused here, since the structs hold only these parts.

// refSpec is v1beta1.ClusterSpec (clusterconfig_types.go:32-46).
type refSpec struct {
	API               *refAPI          `json:"api,omitempty"`
	ControllerManager *refArgs         `json:"controllerManager,omitempty"`
	Scheduler         *refArgs         `json:"scheduler,omitempty"`
	Storage           *refStorage      `json:"storage,omitempty"`
	Network           *refNetwork      `json:"network,omitempty"`
	WorkerProfiles    []refProfile     `json:"workerProfiles,omitempty"`
	Konnectivity      *refKonnectivity `json:"konnectivity,omitempty"`
	MetricsServer     *refPatched      `json:"metricsServer,omitempty"`
}

// refAPI is v1beta1.APISpec (api.go:25-60); its UnmarshalJSON defaults the
// ports after decoding (api.go:189-210).
type refAPI struct {
	ExtraArgs  map[string]string `json:"extraArgs,omitempty"`
	RawArgs    []string          `json:"rawArgs,omitempty"`
	K0sAPIPort int               `json:"k0sApiPort,omitempty"`
	Port       int               `json:"port,omitempty"`
}

func (a *refAPI) UnmarshalJSON(data []byte) error {
	type plain refAPI
	if err := json.Unmarshal(data, (*plain)(a)); err != nil {
		return err
	}
	if a.K0sAPIPort == 0 {
		a.K0sAPIPort = 9443
	}
	if a.Port == 0 {
		a.Port = 6443
	}
	return nil
}

// refArgs is v1beta1.ControllerManagerSpec and SchedulerSpec
// (clusterconfig_types.go:247-253, 267-274), and the flags of EtcdConfig
// (storage.go:137-149) and KineConfig (storage.go:49-57).
type refArgs struct {
	ExtraArgs map[string]string `json:"extraArgs,omitempty"`
	RawArgs   []string          `json:"rawArgs,omitempty"`
}

// refStorage is v1beta1.StorageSpec (storage.go:28-34); its UnmarshalJSON
// resets the type to etcd and etcd's settings before each decoding
// (storage.go:91-99).
type refStorage struct {
	Etcd *refArgs `json:"etcd,omitempty"`
	Kine *refArgs `json:"kine,omitempty"`
	Type string   `json:"type,omitempty"`
}

func (s *refStorage) UnmarshalJSON(data []byte) error {
	s.Type, s.Etcd = "etcd", &refArgs{}
	type plain refStorage
	return json.Unmarshal(data, (*plain)(s))
}

// refNetwork is v1beta1.Network (network.go:22-47); its UnmarshalJSON sets
// the provider to kuberouter before decoding and the provider's and
// kube-proxy's defaults after (network.go:243-271).
type refNetwork struct {
	Calico                 *refCalico     `json:"calico,omitempty"`
	KubeProxy              *refKubeProxy  `json:"kubeProxy,omitempty"`
	KubeRouter             *refKubeRouter `json:"kuberouter,omitempty"`
	CoreDNS                *refPatched    `json:"coreDNS,omitempty"`
	NodeLocalLoadBalancing *refNLLB       `json:"nodeLocalLoadBalancing,omitempty"`
	Provider               string         `json:"provider,omitempty"`
}

func (n *refNetwork) UnmarshalJSON(data []byte) error {
	n.Provider = "kuberouter"
	type plain refNetwork
	if err := json.Unmarshal(data, (*plain)(n)); err != nil {
		return err
	}
	switch n.Provider {
	case "calico":
		if n.Calico == nil {
			n.Calico = defaultCalico()
		}
		n.KubeRouter = nil
	case "kuberouter":
		if n.KubeRouter == nil {
			n.KubeRouter = &refKubeRouter{MetricsPort: 8080}
		}
		n.Calico = nil
	}
	if n.KubeProxy == nil {
		n.KubeProxy = defaultKubeProxy()
	}
	return nil
}

// refCalico is v1beta1.Calico (calico.go:14-53); its UnmarshalJSON sets
// DefaultCalico's values before each decoding (calico.go:80-90).
type refCalico struct {
	EnvVars   map[string]string `json:"envVars,omitempty"`
	Mode      string            `json:"mode,omitempty"`
	VxlanPort int               `json:"vxlanPort,omitempty"`
	Patches   []json.RawMessage `json:"patches,omitempty"`
}

func defaultCalico() *refCalico { return &refCalico{Mode: "vxlan", VxlanPort: 4789} } // calico.go:68-77

func (c *refCalico) UnmarshalJSON(data []byte) error {
	c.Mode, c.VxlanPort = "vxlan", 4789
	type plain refCalico
	return json.Unmarshal(data, (*plain)(c))
}

// refKubeRouter is v1beta1.KubeRouter (kuberouter.go:12-58), with
// DefaultKubeRouter's metrics port (kuberouter.go:85-91).
type refKubeRouter struct {
	MetricsPort int               `json:"metricsPort,omitempty"`
	ExtraArgs   map[string]string `json:"extraArgs,omitempty"`
	RawArgs     []string          `json:"rawArgs,omitempty"`
	Patches     []json.RawMessage `json:"patches,omitempty"`
}

// refKubeProxy is v1beta1.KubeProxy (kubeproxy.go:26-53), with
// DefaultKubeProxy's addresses (kubeproxy.go:98-104).
type refKubeProxy struct {
	Disabled           bool              `json:"disabled,omitempty"`
	MetricsBindAddress string            `json:"metricsBindAddress,omitempty"`
	HealthzBindAddress string            `json:"healthzBindAddress,omitempty"`
	ExtraArgs          map[string]string `json:"extraArgs,omitempty"`
	RawArgs            []string          `json:"rawArgs,omitempty"`
	Patches            []json.RawMessage `json:"patches,omitempty"`
}

func defaultKubeProxy() *refKubeProxy {
	return &refKubeProxy{MetricsBindAddress: "0.0.0.0:10249", HealthzBindAddress: "0.0.0.0:10256"}
}

// refNLLB is v1beta1.NodeLocalLoadBalancing (nllb.go:19-25).
type refNLLB struct {
	Enabled bool `json:"enabled"`
}

// refProfile is v1beta1.WorkerProfile (workerprofile.go:40-45): values is a
// runtime.RawExtension, kept as the JSON k0s's decoder met.
type refProfile struct {
	Name   string          `json:"name"`
	Values json.RawMessage `json:"values,omitempty"`
}

// refKonnectivity is v1beta1.KonnectivitySpec (konnectivity.go:14-29).
type refKonnectivity struct {
	AgentPort int32 `json:"agentPort,omitempty"`
}

// refPatched is v1beta1.CoreDNS (coredns.go:11-14) and MetricsServer
// (metricsserver.go:12-15): their patches.
type refPatched struct {
	Patches []json.RawMessage `json:"patches,omitempty"`
}

// defaultSpec is what k0s decodes the spec over: ClusterConfig's
// UnmarshalJSON starts from DefaultClusterSpec (clusterconfig_types.go:
// 350, 410-422).
func defaultSpec() *refSpec {
	return &refSpec{
		API:               &refAPI{Port: 6443, K0sAPIPort: 9443},
		ControllerManager: &refArgs{},
		Scheduler:         &refArgs{},
		Storage:           &refStorage{Type: "etcd", Etcd: &refArgs{}},
		Network: &refNetwork{ // network.go:72-83
			Provider:               "kuberouter",
			KubeRouter:             &refKubeRouter{MetricsPort: 8080},
			KubeProxy:              defaultKubeProxy(),
			NodeLocalLoadBalancing: &refNLLB{},
		},
		Konnectivity: &refKonnectivity{AgentPort: 8132}, // konnectivity.go:33-37
	}
}

// listener is a port the reference says answers on an address other than
// loopback; proto "tcp" or "udp", or what makes it one the guard cannot
// hold (port 0).
type listener struct {
	port  int
	proto string
	who   string
}

func (l listener) String() string {
	if l.port == 0 {
		return fmt.Sprintf("%s (%s)", l.who, l.proto)
	}
	return fmt.Sprintf("%d/%s: %s", l.port, l.proto, l.who)
}

// The node address, where k0s's etcd listens for its peers (the agent sets
// spec.storage.etcd.peerAddress to it).
const nodeAddress = "192.0.2.10"

// reference is what listens openly on a controller and on a worker of the
// ClusterConfig doc, as k0s decodes it and the components read what k0s
// hands them.
func reference(doc map[string]any) (ctrl, work []listener, err error) {
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, nil, err
	}
	cfg := struct {
		Spec *refSpec `json:"spec,omitempty"`
	}{Spec: defaultSpec()}
	if err := yaml.Unmarshal(data, &cfg); err != nil {
		return nil, nil, err
	}
	s := cfg.Spec
	return controllerListeners(s), workerListeners(s), nil
}

func controllerListeners(s *refSpec) []listener {
	var out []listener
	add := func(who string, port int) { out = append(out, listener{port, "tcp", who}) }

	// kube-apiserver: k0s sets --secure-port from spec.api.port, then
	// extraArgs over its map, and writes the map in Go's map order, rawArgs
	// after (pkg/component/controller/apiserver.go:94-96, 138-143, 197-201).
	args := map[string]string{"secure-port": strconv.Itoa(s.API.Port)}
	maps.Copy(args, s.API.ExtraArgs)
	for _, argv := range anyOrder(args, s.API.RawArgs) {
		if f, ok := parseK8s(argv, map[string]string{"secure-port": "6443", "bind-address": "0.0.0.0"}); ok && openAt(f["bind-address"]) {
			add("kube-apiserver --secure-port", atoi(f["secure-port"]))
		}
	}
	// The join API on every address (cmd/api/api.go:159-174), konnectivity's
	// agent port (pkg/component/controller/konnectivity.go:148).
	add("k0s join API (spec.api.k0sApiPort)", s.API.K0sAPIPort)
	add("konnectivity-server (spec.konnectivity.agentPort)", int(s.Konnectivity.AgentPort))

	// kube-controller-manager and kube-scheduler: k0s's map with extraArgs
	// over it, sorted, rawArgs after (controllermanager.go:41-48, 115-125,
	// 152; scheduler.go:72-86, 111); on loopback unless rebound.
	cm := maps.Clone(s.ControllerManager.ExtraArgs)
	if cm == nil {
		cm = map[string]string{}
	}
	if cm["bind-address"] == "" {
		cm["bind-address"] = "127.0.0.1"
	}
	if f, ok := parseK8s(sortedArgs("--", cm, s.ControllerManager.RawArgs), map[string]string{"secure-port": "10257", "bind-address": "0.0.0.0"}); ok && openAt(f["bind-address"]) {
		add("kube-controller-manager --bind-address", atoi(f["secure-port"]))
	}
	sched := map[string]string{"bind-address": "127.0.0.1"}
	maps.Copy(sched, s.Scheduler.ExtraArgs)
	if f, ok := parseK8s(sortedArgs("--", sched, s.Scheduler.RawArgs), map[string]string{"secure-port": "10259", "bind-address": "0.0.0.0"}); ok && openAt(f["bind-address"]) {
		add("kube-scheduler --bind-address", atoi(f["secure-port"]))
	}

	switch s.Storage.Type {
	case "etcd":
		// etcd: "--"+key over k0s's map, sorted, rawArgs after
		// (controller/etcd.go:171-189, 218-224, 240); etcd parses them
		// with Go's flag package and takes no positional argument (etcd
		// v3.6.14 server/etcdmain/config.go:108, 142-152, 312-317).
		etcdArgs := map[string]string{
			"listen-client-urls": "https://127.0.0.1:2379",
			"listen-peer-urls":   "https://" + net.JoinHostPort(nodeAddress, "2380"),
		}
		var raw []string
		if s.Storage.Etcd != nil {
			maps.Copy(etcdArgs, s.Storage.Etcd.ExtraArgs)
			raw = s.Storage.Etcd.RawArgs
		}
		if f, ok := parseGo(sortedArgs("--", etcdArgs, raw), []string{"listen-client-urls", "listen-peer-urls", "listen-metrics-urls", "log-level"}, true); ok {
			for _, name := range []string{"listen-client-urls", "listen-peer-urls", "listen-metrics-urls"} {
				for _, port := range urlPorts(f[name]) {
					add("etcd --"+name, port)
				}
			}
		}
	case "kine":
		// kine: likewise (controller/kine.go:108-131), parsed by urfave/cli
		// v2.27.7 with Go's flag package (flag.go:171; kine v0.16.3
		// pkg/app/app.go:32, 77).
		kineArgs := map[string]string{"listen-address": "unix:///run/k0s/kine/kine.sock:2379", "metrics-bind-address": ":2380", "compact-interval": "0"}
		var raw []string
		if s.Storage.Kine != nil {
			maps.Copy(kineArgs, s.Storage.Kine.ExtraArgs)
			raw = s.Storage.Kine.RawArgs
		}
		if f, ok := parseGo(sortedArgs("--", kineArgs, raw), []string{"listen-address", "metrics-bind-address", "compact-interval", "endpoint"}, false); ok {
			for _, name := range []string{"listen-address", "metrics-bind-address"} {
				// A unix:// address is a socket (kine v0.16.3
				// pkg/util/network.go:5-13).
				if strings.HasPrefix(f[name], "unix://") {
					continue
				}
				if host, port, ok := hostPort(f[name]); ok && openAt(host) {
					add("kine --"+name, port)
				}
			}
		}
	}
	return out
}

func workerListeners(s *refSpec) []listener {
	var out []listener
	add := func(who string, port int, proto string) { out = append(out, listener{port, proto, who}) }
	unguardable := func(who, why string) { out = append(out, listener{0, why, who}) }

	// The kubelet: each profile decoded over k0s's own with
	// sigs.k8s.io/yaml into the kubelet's configuration, a profile met
	// again decoded over the first (workerconfig/reconciler.go:496-515),
	// then the kubelet's defaults (kubernetes v1.36.3
	// pkg/kubelet/apis/config/v1beta1/defaults.go:87-92, 126-131;
	// readOnlyPort 0 is off, k8s.io/kubelet config/v1beta1/types.go:170-176).
	profiles := map[string]*kubeletv1beta1.KubeletConfiguration{"default": {}}
	names := []string{"default"}
	for _, p := range s.WorkerProfiles {
		kc, ok := profiles[p.Name]
		if !ok {
			kc = &kubeletv1beta1.KubeletConfiguration{}
			profiles[p.Name] = kc
			names = append(names, p.Name)
		}
		if len(p.Values) > 0 {
			if err := yaml.Unmarshal(p.Values, kc); err != nil {
				unguardable("worker profile "+p.Name, "undecodable")
			}
		}
	}
	for _, name := range names {
		kc := profiles[name]
		port, address := int(kc.Port), kc.Address
		if port == 0 {
			port = 10250
		}
		if address == "" {
			address = "0.0.0.0"
		}
		healthzPort, healthzAddress := 10248, kc.HealthzBindAddress
		if kc.HealthzPort != nil {
			healthzPort = int(*kc.HealthzPort)
		}
		if healthzAddress == "" {
			healthzAddress = "127.0.0.1"
		}
		if openAt(address) {
			add("kubelet of profile "+name, port, "tcp")
			if kc.ReadOnlyPort > 0 {
				add("kubelet read-only port of profile "+name, int(kc.ReadOnlyPort), "tcp")
			}
		}
		if healthzPort > 0 && openAt(healthzAddress) {
			add("kubelet healthz of profile "+name, healthzPort, "tcp")
		}
	}

	n := s.Network
	// kube-proxy: --config with k0s's file, extraArgs over it, sorted,
	// rawArgs after (controller/kubeproxy.go:258-278); it reads its
	// addresses from the file k0s writes (kubeproxy.go:289-290) and
	// ignores their flags then (kubernetes v1.36.3
	// cmd/kube-proxy/app/options.go:119-120, 206-231).
	if kp := n.KubeProxy; kp != nil && !kp.Disabled {
		const file = "/var/lib/kube-proxy/config.conf"
		args := map[string]string{"config": file, "hostname-override": "$(NODE_NAME)"}
		maps.Copy(args, kp.ExtraArgs)
		f, ok := parseK8s(sortedArgs("--", args, kp.RawArgs), map[string]string{
			"config": "", "hostname-override": "", "metrics-bind-address": "127.0.0.1:10249", "healthz-bind-address": "0.0.0.0:10256",
		})
		metrics, healthz := kp.MetricsBindAddress, kp.HealthzBindAddress
		switch {
		case !ok:
		case f["config"] == file:
		case f["config"] == "":
			metrics, healthz = f["metrics-bind-address"], f["healthz-bind-address"]
		default:
			unguardable("kube-proxy", "a configuration file k0s did not write")
		}
		if ok {
			for _, a := range []string{metrics, healthz} {
				if host, port, ok := hostPort(a); ok && openAt(host) {
					add("kube-proxy "+a, port, "tcp")
				}
			}
		}
	}

	switch n.Provider {
	case "kuberouter":
		if n.KubeRouter == nil {
			break
		}
		// kube-router: k0s's map (metrics-port from metricsPort), extraArgs
		// merged over it, sorted, rawArgs after (controller/kuberouter.go:
		// 111-151); kube-router parses them with pflag and no normalizing
		// function (kube-router v2.10.0 cmd/kube-router/kube-router.go:33-34,
		// pkg/options/options.go:145, 179-181, 215-216).
		kr := n.KubeRouter
		args := map[string]string{"metrics-port": strconv.Itoa(kr.MetricsPort)}
		maps.Copy(args, kr.ExtraArgs)
		fs := newFlagSet(false)
		for name, def := range map[string]string{"metrics-port": "0", "health-port": "20244", "bgp-port": "179"} {
			fs.Var(&portValue{def}, name, "")
		}
		metricsAddr := fs.String("metrics-addr", "", "")
		healthAddr := fs.String("health-addr", "", "")
		fs.StringP("v", "v", "0", "")
		if fs.Parse(sortedArgs("--", args, kr.RawArgs)) == nil {
			for name, host := range map[string]string{"metrics-port": *metricsAddr, "health-port": *healthAddr, "bgp-port": ""} {
				if port := atoi(fs.Lookup(name).Value.String()); port > 0 && openAt(host) {
					add("kube-router --"+name, port, "tcp")
				}
			}
		}
		if len(kr.Patches) > 0 {
			unguardable("kube-router", "patched manifest")
		}
	case "calico":
		if n.Calico != nil {
			out = append(out, calicoListeners(n.Calico)...)
		}
	}
	// The konnectivity agent in the host network, with its health port on
	// every address (controller/konnectivityagent.go:138-140, 262, 297).
	if n.NodeLocalLoadBalancing != nil && n.NodeLocalLoadBalancing.Enabled {
		add("konnectivity-agent health", 8093, "tcp")
	}
	// A patch rewrites the manifest k0s deploys (pkg/apis/k0s/v1beta1/
	// patches.go:17): its arguments, environment and host network.
	if n.KubeProxy != nil && !n.KubeProxy.Disabled && len(n.KubeProxy.Patches) > 0 {
		unguardable("kube-proxy", "patched manifest")
	}
	if n.CoreDNS != nil && len(n.CoreDNS.Patches) > 0 {
		unguardable("CoreDNS", "patched manifest")
	}
	if s.MetricsServer != nil && len(s.MetricsServer.Patches) > 0 {
		unguardable("metrics-server", "patched manifest")
	}
	return out
}

// calicoListeners: calico-node's environment is the manifest's, then
// envVars in the template's sorted order
// (static/manifests/calico/DaemonSet/calico-node.yaml:220-222, 269-272,
// 289-292); the kubelet keeps the last of one name and hands distinct names
// over in any order (kubernetes v1.36.3 pkg/kubelet/kubelet_pods.go:965-971),
// and Felix reads them through felixEnv.
func calicoListeners(c *refCalico) []listener {
	var out []listener
	env := [][2]string{}
	if c.Mode == "vxlan" {
		env = append(env, [2]string{"FELIX_VXLANPORT", strconv.Itoa(c.VxlanPort)})
	}
	env = append(env, [2]string{"FELIX_HEALTHENABLED", "true"}, [2]string{"FELIX_PROMETHEUSMETRICSENABLED", "true"})
	for _, k := range slices.Sorted(maps.Keys(c.EnvVars)) {
		env = append(env, [2]string{k, c.EnvVars[k]})
	}
	last := map[string]string{}
	for _, kv := range env {
		last[kv[0]] = kv[1]
	}
	params := felixEnv(last)
	or := func(name string, def ...string) []string {
		if v, ok := params[name]; ok {
			return v
		}
		return def
	}
	// config_params.go:357, 409-410, 413-415.
	if c.Mode == "vxlan" {
		for _, p := range or("vxlanport", "4789") {
			if n, err := strconv.Atoi(p); err == nil && n > 0 {
				out = append(out, listener{n, "udp", "calico-node VXLAN (vxlanport " + p + ")"})
			}
		}
	}
	serve := func(who string, enabled, hosts, ports []string) {
		if !slices.ContainsFunc(enabled, func(v string) bool { b, _ := strconv.ParseBool(v); return b }) {
			return
		}
		for _, h := range hosts {
			for _, p := range ports {
				if n, err := strconv.Atoi(p); err == nil && n > 0 && openAt(h) {
					out = append(out, listener{n, "tcp", fmt.Sprintf("%s on %q", who, h)})
				}
			}
		}
	}
	serve("Felix metrics", or("prometheusmetricsenabled", "false"), or("prometheusmetricshost", ""), or("prometheusmetricsport", "9091"))
	serve("Felix health", or("healthenabled", "false"), or("healthhost", "localhost"), or("healthport", "9099"))
	if len(c.Patches) > 0 {
		out = append(out, listener{0, "patched manifest", "calico-node"})
	}
	return out
}
