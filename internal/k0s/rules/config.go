package rules

// CheckClusterConfig is what `k0s install controller --config FILE` does
// with FILE's bytes (cmd/install/controller.go:48-55): decode them as
// ConfigFromBytes does, then run ClusterConfig.Validate. The error is nil or
// Problems. It checks as an install without --feature-gates would; use
// CheckInstall to check a config together with its command line.
func CheckClusterConfig(data []byte) error {
	return checkConfig(data, gates{}).err()
}

// DroppedKeys lists the keys of data that k0s decodes without complaint and
// then ignores: unknown keys below spec.api, spec.storage, spec.network and
// spec.images, whose types decode leniently, and the "interval" and
// "podSecurityPolicy" keys k0s forgives (clusterconfig_types.go:313). A
// typo there changes nothing on the node, silently.
func DroppedKeys(data []byte) []string {
	root, ps := parseYAML(data)
	if len(ps) > 0 || root.kind != vMap {
		return nil
	}
	d := &decoder{}
	d.object(root, clusterConfigType, "", true)
	return d.droppedKeys()
}

// checkConfig decodes and validates with the feature gates of the command
// line.
func checkConfig(data []byte, g gates) Problems {
	root, ps := parseYAML(data)
	if len(ps) > 0 {
		return ps
	}
	doc, ps := decodeConfig(root)
	if len(ps) > 0 {
		// k0s stops at the first decoding error (cmd/install/controller.go:48-51).
		return ps
	}
	c := &problems{}
	validateSpec(doc.child("spec"), g, c)
	return c.sorted()
}

func decodeConfig(root *value) (node, Problems) {
	switch root.kind {
	case vNull:
		return node{}, nil
	case vMap:
		d := &decoder{}
		doc := d.object(root, clusterConfigType, "", true)
		return node{v: doc}, d.result()
	}
	return node{}, Problems{{Message: "cannot unmarshal " + root.jsonKind() + " into v1beta1.ClusterConfig: write a mapping of the ClusterConfig's keys (apiVersion, kind, metadata, spec)", Source: srcDecode}}
}

// validateSpec is ClusterSpec.Validate (clusterconfig_types.go:435-475).
func validateSpec(spec node, g gates, c *problems) {
	validateAPI(spec.child("api"), c)
	validateStorage(spec.child("storage"), c)
	validateNetwork(spec.child("network"), g, c)
	validateKonnectivity(spec.child("konnectivity"), c)
	validateExtensions(spec.child("extensions"), c)
	validateWorkerProfiles(spec, c)
	validateImages(spec.child("images"), c)
	validateNLLBWithExternalAddress(spec, c)
	validateCPLB(spec.at("network", "controlPlaneLoadBalancing"), c)
	validatePatches(spec.child("metricsServer"), c) // metricsserver.go:22
}
