package rules

import "strings"

// The rest of ClusterSpec.Validate: konnectivity, extensions, worker
// profiles, images.

// validateKonnectivity is KonnectivitySpec.Validate (konnectivity.go:41-55).
// The defaults are set before decoding, so a port given as 0 stays 0.
func validateKonnectivity(k node, c *problems) {
	for key, line := range map[string]string{"adminPort": "47", "agentPort": "51"} {
		if port, ok := k.num(key); ok {
			if msg := portProblem(port); msg != "" {
				c.add(k.child(key).path, "pkg/apis/k0s/v1beta1/konnectivity.go:"+line, msg)
			}
		}
	}
}

// validateExtensions is ClusterExtensions.Validate (extensions.go:202-211):
// each repository, then each chart, the first problem of each.
func validateExtensions(e node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/extensions.go:"
	helm := e.child("helm")
	for _, r := range helm.items("repositories") {
		if name, _ := r.str("name"); name == "" {
			c.add(r.child("name").path, src+"193", "repository must have Name field not empty")
		} else if url, _ := r.str("url"); url == "" {
			c.add(r.child("url").path, src+"196", "repository must have URL field not empty")
		}
	}
	for _, ch := range helm.items("charts") {
		name, _ := ch.str("name")
		chartName, _ := ch.str("chartname")
		ns, _ := ch.str("namespace")
		switch {
		case name == "":
			c.add(ch.child("name").path, src+"148", "chart must have Name field not empty")
		case releaseNameProblem(name) != "":
			c.add(ch.child("name").path, src+"150", releaseNameProblem(name))
		case chartName == "":
			c.add(ch.child("chartname").path, src+"154", "chart must have ChartName field not empty")
		case ns == "":
			c.add(ch.child("namespace").path, src+"157", "chart must have TargetNS field not empty")
		}
	}
}

// validateWorkerProfiles is WorkerProfiles.Validate (workerprofile.go:29-62)
// up to the reserved kubelet fields (workerprofile.go:69-97). The kubelet's
// own validation of the values that follows (workerprofile.go:99-140) is not
// mirrored.
func validateWorkerProfiles(spec node, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/workerprofile.go:"
	for _, wp := range spec.items("workerProfiles") {
		name, _ := wp.str("name")
		if name == "" {
			c.add(wp.child("name").path, src+"53", "required value")
		} else if msg := dns1123LabelProblem(name); msg != "" {
			c.add(wp.child("name").path, src+"55", "invalid value: "+msg)
		}
		values := wp.child("values")
		if !values.present() {
			continue
		}
		if values.v.kind != vMap {
			c.add(values.path, src+"71", "json: cannot unmarshal "+values.v.jsonKind()+" into Go value of type v1beta1.KubeletConfiguration: write a mapping of kubelet configuration fields")
			continue
		}
		// encoding/json matches these keys case-insensitively too.
		get := func(key string) *value {
			var found *value
			for _, m := range values.v.m {
				if m.key == key {
					return m.val
				}
				if found == nil && strings.EqualFold(m.key, key) {
					found = m.val
				}
			}
			return found
		}
		if v := get("apiVersion"); v != nil && v.kind == vString && v.s != "" && v.s != "kubelet.config.k8s.io/v1beta1" {
			c.add(values.path.Field("apiVersion"), src+"78", "invalid value: expected \"kubelet.config.k8s.io/v1beta1\"")
		}
		if v := get("kind"); v != nil && v.kind == vString && v.s != "" && v.s != "KubeletConfiguration" {
			c.add(values.path.Field("kind"), src+"82", "invalid value: expected \"KubeletConfiguration\"")
		}
		if v := get("clusterDNS"); v != nil && v.kind != vNull {
			c.add(values.path.Field("clusterDNS"), src+"90", "forbidden: may not be used in k0s worker profiles")
		}
		for key, line := range map[string]string{"clusterDomain": "93", "staticPodURL": "96"} {
			if v := get(key); v != nil && v.kind == vString && v.s != "" {
				c.add(values.path.Field(key), src+line, "forbidden: may not be used in k0s worker profiles")
			}
		}
	}
}

// validateImages is ClusterImages.Validate (images.go:88-117) on the images
// the document sets; k0s's defaults fill in the rest and pass.
func validateImages(im node, c *problems) {
	if pp, ok := im.str("default_pull_policy"); ok {
		switch pp {
		case "", "Always", "IfNotPresent", "Never": // "" becomes IfNotPresent (images.go:82-84)
		default:
			c.add(im.child("default_pull_policy").path, "pkg/apis/k0s/v1beta1/images.go:100", "unsupported value: supported values: \"Always\", \"IfNotPresent\", \"Never\"")
		}
	}
	for _, key := range []string{"konnectivity", "pushgateway", "metricsserver", "kubeproxy", "coredns", "pause"} {
		validateImageSpec(im.child(key), false, c)
	}
	for _, path := range [][]string{
		{"calico", "cni"}, {"calico", "node"}, {"calico", "kubecontrollers"},
		{"calico", "windows", "cni"}, {"calico", "windows", "node"},
		{"kuberouter", "cni"}, {"kuberouter", "cniInstaller"},
		{"windows", "kubeproxy"}, {"windows", "pause"},
	} {
		validateImageSpec(im.at(path...), false, c)
	}
}

// validateImageSpec is ImageSpec.Validate (images.go:29-48) on the fields the
// document sets; unset ones keep a default that passes. emptyIsDefault is
// for the node-local load balancer's image, where k0s replaces an empty
// image or version with its default after decoding (nllb.go:210-215).
func validateImageSpec(s node, emptyIsDefault bool, c *problems) {
	const src = "pkg/apis/k0s/v1beta1/images.go:"
	if img, ok := s.str("image"); ok && !(emptyIsDefault && img == "") {
		if img == "" {
			c.add(s.child("image").path, src+"36", "required value")
		} else if img != strings.TrimSpace(img) {
			c.add(s.child("image").path, src+"38", "must not have leading or trailing whitespace")
		}
	}
	if ver, ok := s.str("version"); ok && !(emptyIsDefault && ver == "") && !imageVersionRe().MatchString(ver) {
		c.add(s.child("version").path, src+"44", "invalid value: must match regular expression: "+imageVersionRe().String()+" (a tag such as v1.2.3, optionally with @sha256:digest)")
	}
}
