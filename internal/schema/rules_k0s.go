package schema

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0s/rules"
)

// k0sPatch: k0s decodes spec.api, spec.storage, spec.network and
// spec.images leniently and drops what it does not know without a word
// (rules.DroppedKeys), so a typo in k0s.patch there changes nothing on
// the node and nobody is told. Keys k0s refuses are refused when the node is
// rendered, before the first write; these only warn, since k0s accepts them.
func (v *crossCheck) k0sPatch() {
	if len(v.cfg.K0s.Patch) == 0 {
		return
	}
	data, err := json.Marshal(v.cfg.K0s.Patch) // JSON is YAML, and encodes in linear time
	if err != nil {
		return
	}
	for _, key := range rules.DroppedKeys(data) {
		path := finding.Path("k0s.patch")
		for _, seg := range strings.Split(key, ".") {
			path = path.Key(seg)
		}
		v.warnf(path.String(), "is a key k0s %s does not know here: it decodes this part of the ClusterConfig leniently and drops the key without a word; check the spelling against the k0s configuration reference", rules.Version)
	}
}

// k0sRefusals are what k0s itself refuses of the effective ClusterConfig
// (package k0s/rules, the rules apply holds the rendered file to), so that validate
// says on the laptop what the node would say at boot. The agent's own part
// passes those rules (render's tests); without the node's addresses and
// password it is incomplete here, so only problems inside what the patch
// sets are the document's, and they are reported at the patch's path, where
// k0sEffective has not refused the value already.
func (v *crossCheck) k0sRefusals() {
	patch := v.cfg.K0s.Patch
	if len(patch) == 0 {
		return
	}
	refused := v.k0s.Refused()
	var elsewhere []finding.Finding
	for _, p := range refused {
		dotted, ok := patchOwns(patch, p.Path)
		switch at := PatchPath(patch, dotted); {
		case !ok:
			elsewhere = append(elsewhere, p)
		case !v.patchRefused[at]:
			v.errorf(at, "k0s %s would refuse it: %s", rules.Version, p.Message)
		}
	}
	v.k0sRefusalsElsewhere(elsewhere)
}

// k0sRefusalsElsewhere: what k0s refuses outside what the patch sets, and
// would not refuse without the patch, the patch brought about together
// with the agent's part (dual stack with a single-stack IPv6 range, say).
// Apply refuses it at boot all the same, so validate refuses it here, at
// the patch, naming the ClusterConfig path k0s names; once k0sEffective
// has refused part of the patch, that refusal says what to change.
func (v *crossCheck) k0sRefusalsElsewhere(refused []finding.Finding) {
	if len(refused) == 0 || len(v.patchRefused) > 0 {
		return
	}
	before := v.k0s.BaseRefused()
	for _, p := range refused {
		if !slices.Contains(before, p) {
			v.errorf("k0s.patch", "makes a ClusterConfig k0s %s would refuse at %s: %s; change the patch, or the document's field behind that path", rules.Version, p.Path, p.Message)
		}
	}
}

// patchOwns says whether a k0s/rules path (spec.a.b[0].c) lies inside what
// the patch sets, with the path's dotted map part up to there.
func patchOwns(patch map[string]any, k0sPath string) (string, bool) {
	var cur any = patch
	var walked []string
	for _, seg := range strings.Split(k0sPath, ".") {
		name, _, indexed := strings.Cut(seg, "[")
		if strings.HasPrefix(name, "<") {
			// A key the rules do not show (<key>): the map the patch set
			// holds it.
			return strings.Join(walked, "."), true
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return strings.Join(walked, "."), true // a value the patch set
		}
		if cur, ok = m[name]; !ok {
			return "", false
		}
		walked = append(walked, name)
		if indexed {
			return strings.Join(walked, "."), true // a list replaces whole
		}
	}
	return strings.Join(walked, "."), true
}
