package schema

import (
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/k0srules"
)

// k0sPatch: k0s decodes spec.api, spec.storage, spec.network and
// spec.images leniently and drops what it does not know without a word
// (k0srules.DroppedKeys), so a typo in k0s.patch there changes nothing on
// the node and nobody is told. Keys k0s refuses are refused when the node is
// rendered, before the first write; these only warn, since k0s accepts them.
func (v *crossCheck) k0sPatch() {
	if len(v.cfg.K0s.Patch) == 0 {
		return
	}
	data, err := yaml.Marshal(v.cfg.K0s.Patch)
	if err != nil {
		return
	}
	for _, key := range k0srules.DroppedKeys(data) {
		path := "k0s.patch"
		for _, seg := range strings.Split(key, ".") {
			path = mapKeyPath(path, seg)
		}
		v.warnf(path, "is a key k0s %s does not know here: it decodes this part of the ClusterConfig leniently and drops the key without a word; check the spelling against the k0s configuration reference", k0srules.Version)
	}
}
