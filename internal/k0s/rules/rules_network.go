package rules

import (
	"net"
	"slices"
)

// validateNetwork is Network.Validate (network.go:86-188) on the network as
// k0s holds it after decoding: what the document leaves out is k0s's default
// (DefaultNetwork, network.go:72-83; the provider is set to kuberouter before
// decoding, network.go:244).
func validateNetwork(n node, g gates, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/network.go:"
	provider := n.strOr("provider", "kuberouter")
	switch provider {
	case "kuberouter", "calico", "custom":
	case "":
		c.add(n.child("provider").path, src+"94", "required value")
	default:
		c.add(n.child("provider").path, src+"96", "unsupported value: supported values: \"kuberouter\", \"calico\", \"custom\"")
	}

	podCIDR := n.strOr("podCIDR", "10.244.0.0/16")
	serviceCIDR := n.strOr("serviceCIDR", "10.96.0.0/12")
	podPath, svcPath := n.child("podCIDR").path, n.child("serviceCIDR").path
	podIP, _, podErr := net.ParseCIDR(podCIDR)
	if podErr != nil {
		c.add(podPath, src+"102", "invalid CIDR address: write an address range with its prefix length, such as 10.244.0.0/16")
	}
	svcIP, svcNet, svcErr := net.ParseCIDR(serviceCIDR)
	if svcErr != nil {
		c.add(svcPath, src+"108", "invalid CIDR address: write an address range with its prefix length, such as 10.96.0.0/12")
	}
	dualStack, _ := n.child("dualStack").flag("enabled")
	if podErr == nil && svcErr == nil {
		if (podIP.To4() != nil) != (svcIP.To4() != nil) {
			c.add(podPath, src+"116", "podCIDR and serviceCIDR must be both IPv4 or IPv6")
		}
		if svcIP.To4() == nil {
			if ones, bits := svcNet.Mask.Size(); bits == 128 && ones > 108 {
				c.add(svcPath, src+"124", "IPv6 service CIDR prefix must be <= 108")
			}
		}
		if !dualStack && podIP.To4() == nil && !g.on(gateIPv6SingleStack) {
			c.add(podPath, src+"130", g.ipv6SingleStackMessage())
		}
	}

	if domain := n.strOr("clusterDomain", "cluster.local"); !isDNSName(domain) {
		c.add(n.child("clusterDomain").path, src+"136", "invalid DNS name: write a domain name, such as cluster.local")
	}

	calico := n.child("calico")
	hasCalico := provider == "calico" || (provider != "kuberouter" && calico.present())
	calicoMode := calico.strOr("mode", "vxlan") // calico.go:81
	if dualStack {
		ds := n.child("dualStack")
		if provider == "calico" && calicoMode != "bird" {
			c.add(calico.child("mode").path, src+"141", "dual-stack for calico is only supported for mode `bird`")
		}
		v6pod, _ := ds.str("IPv6podCIDR")
		if ip, _, err := net.ParseCIDR(v6pod); err != nil {
			c.add(ds.child("IPv6podCIDR").path, src+"145", "invalid CIDR address: write an IPv6 range with its prefix length, such as fd00::/108")
		} else if ip.To4() != nil {
			c.add(ds.child("IPv6podCIDR").path, src+"147", "must be an IPv6 CIDR, not IPv4")
		}
		v6svc, _ := ds.str("IPv6serviceCIDR")
		if ip, ipnet, err := net.ParseCIDR(v6svc); err != nil {
			c.add(ds.child("IPv6serviceCIDR").path, src+"151", "invalid CIDR address: write an IPv6 range with its prefix length, such as fd01::/108")
		} else if ip.To4() != nil {
			c.add(ds.child("IPv6serviceCIDR").path, src+"153", "must be an IPv6 CIDR, not IPv4")
		} else if ones, bits := ipnet.Mask.Size(); bits-ones > 20 {
			c.add(ds.child("IPv6serviceCIDR").path, src+"160", "IPv6 service CIDR prefix must be <= 108")
		}
		// podIP and svcIP are nil when their CIDR did not parse; k0s
		// reports that as not IPv4 as well.
		if podIP.To4() == nil {
			c.add(podPath, src+"165", "if DualStack is enabled, podCIDR must be IPv4")
		}
		if svcIP.To4() == nil {
			c.add(svcPath, src+"168", "if DualStack is enabled, serviceCIDR must be IPv4")
		}
	}

	if fam, ok := n.str("primaryAddressFamily"); ok && fam != "" && fam != "IPv4" && fam != "IPv6" {
		c.add(n.child("primaryAddressFamily").path, src+"174", "unsupported value: supported values: \"IPv4\", \"IPv6\"")
	}

	validateKubeProxy(n.child("kubeProxy"), c)
	// After decoding, kuberouter is dropped with provider calico and
	// calico with kuberouter (network.go:253-264).
	if provider != "calico" {
		validatePatches(n.child("kuberouter"), c) // kuberouter.go:69
	}
	if hasCalico {
		switch calicoMode {
		case "bird", "vxlan", "ipip":
		case "":
			c.add(calico.child("mode").path, "pkg/apis/k0s/v1beta1/calico.go:99", "required value")
		default:
			c.add(calico.child("mode").path, "pkg/apis/k0s/v1beta1/calico.go:103", "unsupported value: supported values: \"bird\", \"vxlan\", \"ipip\"")
		}
		validatePatches(calico, c) // calico.go:106
	}
	validatePatches(n.child("coreDNS"), c) // coredns.go:21
	validateNLLB(n.child("nodeLocalLoadBalancing"), c)
}

// validateKubeProxy is KubeProxy.Validate (kubeproxy.go:107-130), on the
// defaults of DefaultKubeProxy (kubeproxy.go:99-105) where the document is
// silent.
func validateKubeProxy(kp node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/kubeproxy.go:"
	validatePatches(kp, c) // kubeproxy.go:113
	if off, _ := kp.flag("disabled"); off {
		return
	}
	if mode := kp.strOr("mode", "iptables"); !slices.Contains([]string{"iptables", "ipvs", "userspace", "nftables"}, mode) {
		c.add(kp.child("mode").path, src+"119", "unsupported mode for kubeProxy config: write one of iptables, ipvs, userspace, nftables")
	}
	for key, def := range map[string]string{"healthzBindAddress": "0.0.0.0:10256", "metricsBindAddress": "0.0.0.0:10249"} {
		line := "122"
		if key == "metricsBindAddress" {
			line = "125"
		}
		if err := parseHostPort(kp.strOr(key, def)); err != nil {
			c.add(kp.child(key).path, src+line, err.Error()+": write host:port, such as "+def)
		}
	}
}

// validatePatches is Patches.validate (patches.go:71-96) on the patches
// owner holds: calico, kuberouter, kubeProxy, coreDNS, metricsServer.
func validatePatches(owner node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/patches.go:"
	for _, p := range owner.items("patches") {
		switch t, _ := p.child("patch").str("type"); t {
		case "JSON", "StrategicMergePatch", "MergePatch":
		default:
			c.add(p.at("patch", "type").path, src+"85", "invalid type: must be one of JSON, StrategicMergePatch, MergePatch")
		}
		if k, _ := p.child("target").str("kind"); k == "" {
			c.add(p.at("target", "kind").path, src+"89", "required value")
		}
		if nm, _ := p.child("target").str("name"); nm == "" {
			c.add(p.at("target", "name").path, src+"92", "required value")
		}
	}
}
