package rules

// validateNLLB is NodeLocalLoadBalancing.Validate (nllb.go:93-111). After
// decoding, an empty type is EnvoyProxy (nllb.go:78-80), so the "need to
// specify type" branch of nllb.go:103 cannot be reached from a file.
func validateNLLB(n node, c *problems) {
	if !n.present() {
		return
	}
	t := n.strOr("type", "EnvoyProxy")
	if t == "" {
		t = "EnvoyProxy"
	}
	if t != "EnvoyProxy" && t != "Traefik" {
		c.add(n.child("type").path, "pkg/apis/k0s/v1beta1/nllb.go:106", "unsupported value: supported values: \"EnvoyProxy\", \"Traefik\"")
	}
	validateProxy(n.child("envoyProxy"), c)
	validateProxy(n.child("traefik"), c)
}

// validateProxy is validateProxyConfig (nllb.go:285-323) on an envoyProxy
// or traefik block; an unset image, image name, version or API server port
// is filled with k0s's default first (nllb.go:207-223, 260-276).
func validateProxy(p node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/nllb.go:"
	if !p.present() {
		return
	}
	validateImageSpec(p.child("image"), true, c)
	switch pp, _ := p.str("imagePullPolicy"); pp {
	case "", "Always", "Never", "IfNotPresent":
	default:
		c.add(p.child("imagePullPolicy").path, src+"297", "unsupported value: supported values: \"Always\", \"Never\", \"IfNotPresent\"")
	}
	if port, ok := p.num("apiServerBindPort"); ok && port != 0 {
		if msg := portProblem(port); msg != "" {
			c.add(p.child("apiServerBindPort").path, src+"309", msg)
		}
	}
	// A pointer: 0 is not replaced by the default (nllb.go:220-222).
	if port, ok := p.num("konnectivityServerBindPort"); ok {
		if msg := portProblem(port); msg != "" {
			c.add(p.child("konnectivityServerBindPort").path, src+"317", msg)
		}
	}
}

// validateNLLBWithExternalAddress is ClusterSpec.ValidateNodeLocalLoadBalancing
// (clusterconfig_types.go:477-494).
func validateNLLBWithExternalAddress(spec node, c *problems) {
	nllb := spec.at("network", "nodeLocalLoadBalancing")
	if on, _ := nllb.flag("enabled"); !on {
		return
	}
	if ext, _ := spec.child("api").str("externalAddress"); ext != "" {
		c.add(nllb.child("enabled").path, "pkg/apis/k0s/v1beta1/clusterconfig_types.go:489",
			"forbidden: node-local load balancing cannot be used in conjunction with an external Kubernetes API server address")
	}
}
