package k0s

import "github.com/corium/corium-agent/internal/k0s/config"

// Sources are at the tag of each project: k0s v1.36.3+k0s.0 unless named,
// kube-router v2.10.0 (the image k0s runs, pkg/constant/constant.go:103),
// apiserver-network-proxy v0.36.0 (konnectivity,
// embedded-bins/Makefile.variables), and the etcd, kine and calico
// releases named below.
const (
	kr   = "kube-router v2.10.0 pkg/options/options.go:"
	anp  = "apiserver-network-proxy v0.36.0 cmd/"
	cnm  = "static/manifests/calico/DaemonSet/calico-node.yaml:"
	ctrl = "pkg/component/controller/"
	// The releases k0s bundles (embedded-bins/Makefile.variables:44, 56;
	// pkg/constant/constant.go:97).
	etcd   = "etcd v3.6.14 "
	kine   = "kine v0.16.3 "
	calico = "calico v3.32.1 "
)

// Bind addresses of the table.
const (
	everyAddress = "every address"
	localhost    = "127.0.0.1"
)

// The refused settings' instructions, shared by rows that move one
// component.
const (
	keepLoopback = "leave it on loopback; reach it on the node, or through the API server"
	keepKubelet  = "leave the kubelet's listeners to k0s's defaults in worker profiles; reach the kubelet through the API server"
)

func fixed(n int) func(Input, config.Network) int {
	return func(Input, config.Network) int { return n }
}

var table = []Listener{
	// Controllers.
	{
		Component: "kube-apiserver", Port: config.DefaultAPIPort, Proto: "tcp", Bind: everyAddress, Role: RoleController,
		Handling: Followed, Follows: "`spec.api.port`",
		Refuses: []Setting{{Arg, "spec.api", "secure-port"}},
		Instead: "set spec.api.port, which the guard follows",
		Source:  ctrl + "apiserver.go:96, 121-123, 138-143, 201",
		port:    func(_ Input, n config.Network) int { return n.APIPort },
	},
	{
		Component: "k0s join API", Port: config.DefaultJoinAPIPort, Proto: "tcp", Bind: everyAddress, Role: RoleController,
		Handling: Followed, Follows: "`spec.api.k0sApiPort` (`spec.api.extraArgs.bind-address` rebinds it: the port is guarded on every address)",
		Source: "cmd/api/api.go:159-174; pkg/apis/k0s/v1beta1/api.go:205-206",
		port:   func(_ Input, n config.Network) int { return n.JoinAPIPort },
	},
	{
		Component: "konnectivity-server (agents)", Port: config.DefaultKonnectivityPort, Proto: "tcp", Bind: everyAddress, Role: RoleController,
		Handling: Followed, Follows: "`spec.konnectivity.agentPort`",
		Source: ctrl + "konnectivity.go:148; pkg/apis/k0s/v1beta1/konnectivity.go:33-37",
		port:   func(_ Input, n config.Network) int { return n.KonnectivityPort },
	},
	{
		Component: "konnectivity-server (admin)", Port: 8133, Proto: "tcp", Bind: localhost, Role: RoleController,
		Handling: Loopback, Follows: "`spec.konnectivity.adminPort` (moves it on loopback)",
		Source: ctrl + "konnectivity.go:149; " + anp + "server/app/options/options.go:402",
	},
	{
		Component: "konnectivity-server (health)", Port: 8092, Proto: "tcp", Bind: "localhost", Role: RoleController,
		Handling: Loopback,
		Source:   ctrl + "konnectivity.go:150-151",
	},
	{
		Component: "etcd (peers)", Port: config.EtcdPeerPort, Proto: "tcp", Bind: "the node address", Role: RoleController, When: "storage etcd",
		Handling: Followed, Follows: "`spec.storage.etcd.peerAddress` (the agent's: the node address)",
		Refuses: []Setting{{Arg, "spec.storage.etcd", "listen-peer-urls"}},
		Instead: "leave etcd's URLs to k0s",
		Source:  ctrl + "etcd.go:176, 218-224, 240; pkg/apis/k0s/v1beta1/storage.go:201-204",
		port: func(in Input, _ config.Network) int {
			if in.Storage == config.StorageEtcd {
				return config.EtcdPeerPort
			}
			return 0
		},
	},
	{
		Component: "etcd (clients)", Port: 2379, Proto: "tcp", Bind: localhost, Role: RoleController, When: "storage etcd",
		Handling: Loopback,
		Refuses:  []Setting{{Arg, "spec.storage.etcd", "listen-client-urls"}},
		Instead:  "leave etcd's URLs to k0s; its clients are on the node",
		Source:   ctrl + "etcd.go:173, 218-224, 240",
	},
	{
		Component: "etcd (metrics)", Proto: "tcp", Bind: "off (served on the client URL)", Role: RoleController, When: "storage etcd",
		Handling: Refused,
		Refuses:  []Setting{{Arg, "spec.storage.etcd", "listen-metrics-urls"}},
		Instead:  "leave etcd's URLs to k0s; its metrics are on the client URL, on loopback",
		Source:   ctrl + "etcd.go:171-189, 218-224, 240",
	},
	{
		Component: "etcd (HTTP clients)", Proto: "tcp", Bind: "off", Role: RoleController, When: "storage etcd",
		Handling: Refused,
		Refuses:  []Setting{{Arg, "spec.storage.etcd", "listen-client-http-urls"}},
		Instead:  "leave etcd's URLs to k0s; its clients are on the node",
		Source:   ctrl + "etcd.go:171-189, 218-224, 240; " + etcd + "server/embed/config.go:763-766, server/etcdmain/config.go:315",
	},
	{
		Component: "etcd (every listener, from a file)", Proto: "tcp", Bind: "off", Role: RoleController, When: "storage etcd",
		Handling: Refused,
		Refuses:  []Setting{{Arg, "spec.storage.etcd", "config-file"}},
		Instead:  "leave etcd's flags to k0s: with a configuration file etcd ignores every flag k0s sets, its listen URLs and certificates included",
		Source:   ctrl + "etcd.go:218-224, 240; " + etcd + "server/etcdmain/config.go:128, 165-182",
	},
	{
		Component: "kine (metrics)", Port: config.KineMetricsPort, Proto: "tcp", Bind: everyAddress, Role: RoleController, When: "storage kine or sqlite",
		Handling: Followed,
		Refuses:  []Setting{{Arg, "spec.storage.kine", "metrics-bind-address"}},
		Instead:  "leave kine's metrics to k0s, on 2380, which the guard holds",
		Source:   ctrl + "kine.go:114-115, 119-125, 131",
		port: func(in Input, _ config.Network) int {
			if in.Storage == config.StorageKine {
				return config.KineMetricsPort
			}
			return 0
		},
	},
	{
		Component: "kine (etcd API)", Proto: "unix", Bind: "a unix socket", Role: RoleController, When: "storage kine or sqlite",
		Handling: Loopback,
		Refuses:  []Setting{{Arg, "spec.storage.kine", "listen-address"}},
		Instead:  "leave kine's listen address to k0s: over TCP its etcd API answers without authentication",
		Source:   ctrl + "kine.go:110-113, 119-125, 131",
	},
	{
		Component: "kine (embedded NATS)", Proto: "tcp", Bind: "off (a nats:// endpoint starts it on every address, at a random port)", Role: RoleController, When: "storage kine or sqlite",
		Handling: Refused,
		Refuses:  []Setting{{Arg, "spec.storage.kine", "endpoint"}},
		Instead:  "give kine's database at storage.dataSourceFrom: the agent owns the datasource, which k0s hands kine as its endpoint",
		Source:   ctrl + "kine.go:108-109, 119-125, 131; " + kine + "pkg/app/app.go:38-43, pkg/drivers/nats/new.go:71-131, pkg/drivers/nats/server/server.go:87-96",
	},
	{
		Component: "kube-controller-manager", Port: 10257, Proto: "tcp", Bind: localhost, Role: RoleController,
		Handling: Loopback,
		Refuses:  []Setting{{Arg, "spec.controllerManager", "bind-address"}},
		Instead:  keepLoopback,
		Source:   ctrl + "controllermanager.go:43, 115-120, 151",
	},
	{
		Component: "kube-scheduler", Port: 10259, Proto: "tcp", Bind: localhost, Role: RoleController,
		Handling: Loopback,
		Refuses:  []Setting{{Arg, "spec.scheduler", "bind-address"}},
		Instead:  keepLoopback,
		Source:   ctrl + "scheduler.go:76, 81-86, 111",
	},
	{
		Component: "control-plane load balancer proxy", Port: config.DefaultProxyPort, Proto: "tcp", Bind: everyAddress, Role: RoleController,
		When:     "ha: keepalived VRRP instances, no virtual servers",
		Handling: Followed, Follows: "`spec.network.controlPlaneLoadBalancing.keepalived.userSpaceProxyBindPort`",
		Source: ctrl + "cplb/cplb_linux.go:101-106, 159-184, 400-409; pkg/apis/k0s/v1beta1/cplb.go:60-62, 346-350",
		port:   func(_ Input, n config.Network) int { return n.ProxyPort },
	},

	// Workers, and controllers with a kubelet.
	{
		Component: "kubelet", Port: config.KubeletPort, Proto: "tcp", Bind: everyAddress, Role: RoleWorker,
		Handling: Followed, Follows: "`spec.workerProfiles[*].values.address` rebinds it (the port is guarded on every address)",
		Refuses: []Setting{{ProfileValue, "", "port"}},
		Instead: keepKubelet,
		Source:  ctrl + "workerconfig/reconciler.go:497-498, 507-515, 583-604 (k0s keeps the kubelet's default port)",
		port:    fixed(config.KubeletPort),
	},
	{
		Component: "kubelet (read-only)", Port: 10255, Proto: "tcp", Bind: "off", Role: RoleWorker,
		Handling: Refused,
		Refuses:  []Setting{{ProfileValue, "", "readOnlyPort"}},
		Instead:  "leave it off: it serves the node's pods and metrics without authentication; read the kubelet on its port 10250",
		Source:   ctrl + "workerconfig/reconciler.go:583-604 (k0s keeps the kubelet's default, off)",
	},
	{
		Component: "kubelet (health)", Port: 10248, Proto: "tcp", Bind: localhost, Role: RoleWorker,
		Handling: Loopback,
		Refuses:  []Setting{{ProfileValue, "", "healthzBindAddress"}},
		Instead:  keepKubelet,
		Source:   ctrl + "workerconfig/reconciler.go:583-604 (k0s keeps the kubelet's default)",
	},
	{
		Component: "kube-proxy (metrics)", Port: 10249, Proto: "tcp", Bind: everyAddress, Role: RoleWorker, When: "kube-proxy not disabled",
		Handling: Followed, Follows: "`spec.network.kubeProxy.metricsBindAddress` (on loopback: not guarded)",
		Refuses: []Setting{{Arg, "spec.network.kubeProxy", "metrics-bind-address"}, {Arg, "spec.network.kubeProxy", "config"}},
		Instead: "set spec.network.kubeProxy.metricsBindAddress and healthzBindAddress, which the guard follows",
		Source:  "pkg/apis/k0s/v1beta1/kubeproxy.go:98-104; " + ctrl + "kubeproxy.go:258-278, 289-290",
		port: func(_ Input, n config.Network) int {
			if n.KubeProxy == nil {
				return 0
			}
			return n.KubeProxy.MetricsPort
		},
	},
	{
		Component: "kube-proxy (health)", Port: 10256, Proto: "tcp", Bind: everyAddress, Role: RoleWorker, When: "kube-proxy not disabled",
		Handling: Followed, Follows: "`spec.network.kubeProxy.healthzBindAddress` (on loopback: not guarded)",
		Refuses: []Setting{{Arg, "spec.network.kubeProxy", "healthz-bind-address"}},
		Instead: "set spec.network.kubeProxy.metricsBindAddress and healthzBindAddress, which the guard follows",
		Source:  "pkg/apis/k0s/v1beta1/kubeproxy.go:98-104; " + ctrl + "kubeproxy.go:258-278, 289-290",
		port: func(_ Input, n config.Network) int {
			if n.KubeProxy == nil {
				return 0
			}
			return n.KubeProxy.HealthzPort
		},
	},
	{
		Component: "kube-router (BGP)", Port: config.BGPPort, Proto: "tcp", Bind: everyAddress, Role: RoleWorker, When: "cni kuberouter",
		Handling: Followed, Follows: "`spec.network.kuberouter` `extraArgs` / `rawArgs` `bgp-port`",
		Source: ctrl + "kuberouter.go:140, 151; " + kr + "12, 145",
		port:   kubeRouter(func(k config.KubeRouter) int { return k.BGPPort }),
	},
	{
		Component: "kube-router (metrics)", Port: 8080, Proto: "tcp", Bind: everyAddress, Role: RoleWorker, When: "cni kuberouter",
		Handling: Followed, Follows: "`spec.network.kuberouter.metricsPort`; `extraArgs` / `rawArgs` `metrics-port`",
		Source: ctrl + "kuberouter.go:121, 140, 151; pkg/apis/k0s/v1beta1/kuberouter.go:85-91; " + kr + "215-217",
		port:   kubeRouter(func(k config.KubeRouter) int { return k.MetricsPort }),
	},
	{
		Component: "kube-router (health)", Port: config.DefaultKubeRouterHealthPort, Proto: "tcp", Bind: everyAddress, Role: RoleWorker, When: "cni kuberouter",
		Handling: Followed, Follows: "`spec.network.kuberouter` `extraArgs` / `rawArgs` `health-port`",
		Source: ctrl + "kuberouter.go:287, 331-345; " + kr + "14, 179-181",
		port:   kubeRouter(func(k config.KubeRouter) int { return k.HealthPort }),
	},
	{
		Component: "kube-router (fou tunnel)", Port: 5555, Proto: "udp", Bind: everyAddress, Role: RoleWorker, When: "cni kuberouter, overlay-encap fou",
		Handling: Followed, Follows: "`spec.network.kuberouter` `extraArgs` / `rawArgs` `overlay-encap-port`",
		Source: ctrl + "kuberouter.go:140, 151; " + kr + "15",
		port:   tunnel(config.ProviderKubeRouter),
	},
	{
		Component: "kube-router (GoBGP admin)", Port: 50051, Proto: "tcp", Bind: localhost, Role: RoleWorker, When: "cni kuberouter",
		Handling: Loopback,
		Refuses:  []Setting{{Arg, "spec.network.kuberouter", "gobgp-admin-address"}},
		Instead:  "leave GoBGP's admin API on loopback: it changes the node's routes without authentication",
		Source:   kr + "16-17, 174-178",
	},
	{
		Component: "kube-router (pprof)", Port: 6060, Proto: "tcp", Bind: "off", Role: RoleWorker, When: "cni kuberouter",
		Handling: Refused,
		Refuses:  []Setting{{Arg, "spec.network.kuberouter", "enable-pprof"}},
		Instead:  "leave it off: it serves kube-router's profiles and memory on every address without authentication",
		Source:   ctrl + "kuberouter.go:140, 151; " + kr + "168-169; kube-router v2.10.0 cmd/kube-router/kube-router.go:75-84",
	},
	{
		Component: "calico-node (BGP)", Port: config.BGPPort, Proto: "tcp", Bind: everyAddress, Role: RoleWorker, When: "cni calico (bird runs BGP in mode bird; guarded in every mode)",
		Handling: Followed,
		Source:   cnm + "185-189",
		port: func(in Input, _ config.Network) int {
			if in.Provider == config.ProviderCalico {
				return config.BGPPort
			}
			return 0
		},
	},
	{
		Component: "calico-node (VXLAN)", Port: config.DefaultCalicoVXLANPort, Proto: "udp", Bind: everyAddress, Role: RoleWorker, When: "cni calico, mode vxlan",
		Handling: Followed, Follows: "`spec.network.calico.vxlanPort`",
		Refuses: []Setting{{EnvVar, "spec.network.calico", "FELIX_VXLANPORT"}},
		Instead: "set spec.network.calico.vxlanPort, which the guard follows",
		Source:  cnm + "220-222, 287-292; pkg/apis/k0s/v1beta1/calico.go:68-77",
		port:    tunnel(config.ProviderCalico),
	},
	{
		Component: "calico-node (Felix metrics)", Port: config.FelixMetricsPort, Proto: "tcp", Bind: everyAddress, Role: RoleWorker, When: "cni calico",
		Handling: Followed,
		Refuses:  []Setting{{EnvVar, "spec.network.calico", "FELIX_PROMETHEUSMETRICSPORT"}},
		Instead:  "leave Felix's metrics on 9091, which the guard holds",
		Source:   cnm + "28, 271-272, 287-292",
		port: func(in Input, _ config.Network) int {
			if in.Provider == config.ProviderCalico {
				return config.FelixMetricsPort
			}
			return 0
		},
	},
	{
		Component: "calico-node (Felix health)", Port: 9099, Proto: "tcp", Bind: "localhost", Role: RoleWorker, When: "cni calico",
		Handling: Loopback,
		Refuses:  []Setting{{EnvVar, "spec.network.calico", "FELIX_HEALTHHOST"}},
		Instead:  keepLoopback,
		Source:   cnm + "269-270, 287-292",
	},
	{
		Component: "calico-node (Felix pprof)", Proto: "tcp", Bind: "localhost", Role: RoleWorker, When: "cni calico, FELIX_DEBUGPORT set",
		Handling: Loopback,
		Refuses:  []Setting{{EnvVar, "spec.network.calico", "FELIX_DEBUGHOST"}},
		Instead:  keepLoopback,
		Source:   cnm + "285-292; " + calico + "felix/config/config_params.go:456-459, felix/daemon/daemon.go:444-446",
	},
	{
		Component: "calico-node (Felix WireGuard)", Port: 51820, Proto: "udp", Bind: "off", Role: RoleWorker, When: "cni calico",
		Handling: Refused,
		Refuses:  []Setting{{EnvVar, "spec.network.calico", "FELIX_WIREGUARDENABLED"}, {EnvVar, "spec.network.calico", "FELIX_WIREGUARDENABLEDV6"}},
		Instead:  "leave it off: the node's overlay already encrypts between nodes, and calico's own WireGuard (51820/udp, 51821/udp for IPv6) runs a device and port the guard does not follow",
		Source:   cnm + "226-229, 285-292; " + calico + "felix/config/config_params.go:176-179",
	},
	{
		Component: "node-local load balancer (API)", Port: 7443, Proto: "tcp", Bind: "a loopback address", Role: RoleWorker, When: "spec.network.nodeLocalLoadBalancing.enabled",
		Handling: Loopback, Follows: "`spec.network.nodeLocalLoadBalancing` `envoyProxy` / `traefik` `apiServerBindPort` (moves it on loopback)",
		Source: "pkg/component/worker/nllb/envoy.go:120-137, 344-345; pkg/component/worker/nllb/traefik.go:309-312; pkg/apis/k0s/v1beta1/nllb.go:130-137",
	},
	{
		Component: "node-local load balancer (konnectivity)", Port: 7132, Proto: "tcp", Bind: "a loopback address", Role: RoleWorker, When: "spec.network.nodeLocalLoadBalancing.enabled",
		Handling: Loopback, Follows: "`spec.network.nodeLocalLoadBalancing` `envoyProxy` / `traefik` `konnectivityServerBindPort` (moves it on loopback)",
		Source: "pkg/component/worker/nllb/envoy.go:355-356; pkg/component/worker/nllb/traefik.go:315-316; pkg/apis/k0s/v1beta1/nllb.go:139-146",
	},
	{
		Component: "konnectivity-agent (health)", Port: config.KonnectivityAgentHealthPort, Proto: "tcp", Bind: everyAddress, Role: RoleWorker,
		When:     "spec.network.nodeLocalLoadBalancing.enabled (the agent runs in the host network)",
		Handling: Followed,
		Source:   ctrl + "konnectivityagent.go:138-140, 262, 297; " + anp + "agent/app/options/options.go:275-276",
		port: func(_ Input, n config.Network) int {
			if n.NLLB {
				return config.KonnectivityAgentHealthPort
			}
			return 0
		},
	},
	{
		Component: "konnectivity-agent (admin)", Port: 8094, Proto: "tcp", Bind: localhost, Role: RoleWorker,
		When:     "spec.network.nodeLocalLoadBalancing.enabled (the agent runs in the host network)",
		Handling: Loopback,
		Source:   ctrl + "konnectivityagent.go:138-140, 278-285; " + anp + "agent/app/options/options.go:277-278",
	},
	{
		Component: "k0s static pods server", Proto: "tcp", Bind: localhost + ", a port of its own", Role: RoleWorker,
		When:     "spec.network.nodeLocalLoadBalancing.enabled",
		Handling: Loopback,
		Source:   "cmd/worker/worker.go:245-264; pkg/component/worker/static_pods.go:337",
	},
}

// kubeRouter is a kube-router port, with kube-router the CNI.
func kubeRouter(port func(config.KubeRouter) int) func(Input, config.Network) int {
	return func(in Input, n config.Network) int {
		if in.Provider != config.ProviderKubeRouter {
			return 0
		}
		return port(n.KubeRouter)
	}
}

// tunnel is the provider's tunnel port (tunnelPorts), where it is the CNI
// and has one.
func tunnel(provider string) func(Input, config.Network) int {
	return func(in Input, n config.Network) int {
		if t := tunnelPorts(in, n); in.Provider == provider && len(t) > 0 {
			return t[0].Number
		}
		return 0
	}
}
