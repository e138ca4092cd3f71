package rules

// spec.network and what it holds. Network has its own UnmarshalJSON
// (network.go:243) that decodes with a plain json.Unmarshal, so nothing
// below spec.network is decoded strictly: a key k0s does not know is
// dropped there, not refused.

var networkType = &typ{
	name:    "v1beta1.Network",
	source:  "pkg/apis/k0s/v1beta1/network.go:22",
	lenient: true,
	fields: []field{
		object("calico", calicoType),
		object("dualStack", &typ{name: "v1beta1.DualStack", source: "pkg/apis/k0s/v1beta1/dualstack.go:7", fields: []field{
			boolean("enabled"), str("IPv6podCIDR"), str("IPv6serviceCIDR"),
		}}),
		object("kubeProxy", kubeProxyType),
		object("kuberouter", kubeRouterType),
		object("coreDNS", &typ{name: "v1beta1.CoreDNS", source: "pkg/apis/k0s/v1beta1/coredns.go:11", fields: []field{
			listOf("patches", patchType),
		}}),
		object("nodeLocalLoadBalancing", nllbType),
		object("controlPlaneLoadBalancing", cplbType),
		str("podCIDR"), str("provider"), str("serviceCIDR"), str("clusterDomain"), str("primaryAddressFamily"),
	},
}

// calicoType: lenient itself too (calico.go:80).
var calicoType = &typ{
	name:    "v1beta1.Calico",
	source:  "pkg/apis/k0s/v1beta1/calico.go:14",
	lenient: true,
	fields: []field{
		boolean("wireguard"), strMap("envVars"), str("flexVolumeDriverPath"),
		str("ipAutodetectionMethod"), str("ipV6AutodetectionMethod"),
		number("mtu", kInt), str("mode"), str("overlay"),
		number("vxlanPort", kInt), number("vxlanVNI", kInt),
		listOf("patches", patchType),
	},
}

var kubeRouterType = &typ{
	name:   "v1beta1.KubeRouter",
	source: "pkg/apis/k0s/v1beta1/kuberouter.go:12",
	fields: []field{
		boolean("autoMTU"), number("mtu", kInt), number("metricsPort", kInt),
		str("hairpin"), boolean("hairpinMode"), boolean("ipMasq"),
		str("peerRouterASNs"), str("peerRouterIPs"),
		strMap("extraArgs"), strs("rawArgs"), listOf("patches", patchType),
	},
}

var kubeProxyType = &typ{
	name:   "v1beta1.KubeProxy",
	source: "pkg/apis/k0s/v1beta1/kubeproxy.go:26",
	fields: []field{
		boolean("disabled"), str("mode"), str("metricsBindAddress"), str("healthzBindAddress"),
		object("iptables", &typ{name: "v1beta1.KubeProxyIPTablesConfiguration", source: "pkg/apis/k0s/v1beta1/kubeproxy.go:58", fields: []field{
			number("masqueradeBit", kInt32), boolean("masqueradeAll"), boolean("localhostNodePorts"),
			duration("syncPeriod"), duration("minSyncPeriod"),
		}}),
		object("ipvs", &typ{name: "v1beta1.KubeProxyIPVSConfiguration", source: "pkg/apis/k0s/v1beta1/kubeproxy.go:70", fields: []field{
			duration("syncPeriod"), duration("minSyncPeriod"), str("scheduler"), strs("excludeCIDRs"),
			boolean("strictARP"), duration("tcpTimeout"), duration("tcpFinTimeout"), duration("udpTimeout"),
		}}),
		object("nftables", &typ{name: "v1beta1.KubeProxyNFTablesConfiguration", source: "pkg/apis/k0s/v1beta1/kubeproxy.go:88", fields: []field{
			duration("syncPeriod"), number("masqueradeBit", kInt32), boolean("masqueradeAll"), duration("minSyncPeriod"),
		}}),
		strs("nodePortAddresses"), strMap("extraArgs"), strs("rawArgs"), listOf("patches", patchType),
	},
}

func proxyType(name, source string) *typ {
	return &typ{name: name, source: source, lenient: true, fields: []field{
		object("image", imageSpecType), str("imagePullPolicy"),
		number("apiServerBindPort", kInt32), number("konnectivityServerBindPort", kInt32),
	}}
}

// nllbType: lenient (nllb.go:66), as are its proxies (nllb.go:195, 248).
var nllbType = &typ{
	name:    "v1beta1.NodeLocalLoadBalancing",
	source:  "pkg/apis/k0s/v1beta1/nllb.go:19",
	lenient: true,
	fields: []field{
		boolean("enabled"), str("type"),
		object("envoyProxy", proxyType("v1beta1.EnvoyProxy", "pkg/apis/k0s/v1beta1/nllb.go:121")),
		object("traefik", proxyType("v1beta1.Traefik", "pkg/apis/k0s/v1beta1/nllb.go:151")),
	},
}

var cplbType = &typ{
	name:   "v1beta1.ControlPlaneLoadBalancingSpec",
	source: "pkg/apis/k0s/v1beta1/cplb.go:24",
	fields: []field{
		boolean("enabled"), str("type"),
		object("keepalived", &typ{name: "v1beta1.KeepalivedSpec", source: "pkg/apis/k0s/v1beta1/cplb.go:51", fields: []field{
			listOf("vrrpInstances", &typ{name: "v1beta1.VRRPInstance", source: "pkg/apis/k0s/v1beta1/cplb.go:85", fields: []field{
				strs("virtualIPs"), str("interface"), number("virtualRouterID", kInt32),
				number("advertIntervalSeconds", kInt32), str("authPass"), strs("unicastPeers"),
				str("unicastSourceIP"), number("addressLabel", kUint32),
			}}),
			listOf("virtualServers", &typ{name: "v1beta1.VirtualServer", source: "pkg/apis/k0s/v1beta1/cplb.go:216", fields: []field{
				str("ipAddress"), duration("delayLoop"), str("lbAlgo"), str("lbKind"),
				number("persistenceTimeoutSeconds", kInt),
			}}),
			number("userSpaceProxyBindPort", kInt), boolean("disableLoadBalancer"),
			str("configTemplateVRRP"), str("configTemplateVS"),
		}}),
	},
}
