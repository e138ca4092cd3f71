package k0syaml

import (
	"errors"
	"sync"

	"gopkg.in/yaml.v3"

	"github.com/corium/corium-agent/internal/secret"
)

// PatchSecrets are the places in a k0s.patch tree (the mapping merged over
// the rendered k0s.yaml, spec at its top) that hold what a plan masks as
// a secret in the file: the agent's own secrets (Node's secret.Value
// fields, by their paths) and a value under a free-text secret key
// (FreeTextSecretKeys) at any depth, each key matched in any case as k0s
// and the plan match them. A key whose value is null or empty holds no
// secret. The order is the paths', then the tree's (keys sorted).
func PatchSecrets(patch map[string]any) ([][]Step, error) {
	var out [][]Step
	_, err := patchSecrets(patch, func(_ *yaml.Node, at []Step) { out = append(out, at) })
	return out, err
}

// RedactedPatch is patch with each value PatchSecrets finds replaced by
// the marker a secret.Value prints as, for a record of the document that must hold no secret
// (the applied configuration). patch is left as it was.
func RedactedPatch(patch map[string]any) (map[string]any, error) {
	var encodeErr error
	doc, err := patchSecrets(patch, func(v *yaml.Node, _ []Step) {
		// The place holds a secret.Value, which encodes as every Value
		// prints: the marker is secret's to write.
		if err := v.Encode(secret.Value{}); err != nil {
			encodeErr = err
		}
	})
	if encodeErr != nil {
		return nil, errors.New("k0s.patch's secrets do not encode redacted")
	}
	if err != nil || doc == nil {
		return nil, err
	}
	var out map[string]any
	if err := doc.Decode(&out); err != nil {
		return nil, errors.New("k0s.patch does not decode after redaction")
	}
	return out, nil
}

// patchSecrets calls found with each secret value of patch, as a node of
// the tree it returns, and the steps to it.
func patchSecrets(patch map[string]any, found func(v *yaml.Node, at []Step)) (*yaml.Node, error) {
	if len(patch) == 0 {
		return nil, nil
	}
	var doc yaml.Node
	if err := doc.Encode(patch); err != nil {
		return nil, errors.New("k0s.patch does not encode as YAML") // the error may quote a value
	}
	for _, path := range patchSecretPaths() {
		err := walkSecrets(&doc, path, func(_, v *yaml.Node, at []Step) error {
			if v = resolve(v); v.Tag != "!!null" && !(v.Kind == yaml.ScalarNode && v.Value == "") {
				found(v, at)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return &doc, nil
}

// patchSecretPaths are the paths of what a plan masks in a k0s.yaml: the
// document's secret paths, then each free-text key at any depth.
var patchSecretPaths = sync.OnceValue(func() [][]string {
	paths := documentSecretPaths()
	for _, k := range FreeTextSecretKeys {
		paths = append(paths[:len(paths):len(paths)], []string{anyDepth, k})
	}
	return paths
})

// SecretKeys are the keys whose values a plan masks in a k0s.yaml, each
// path's last (the agent's secret fields') and the free-text keys: for a
// reader that masks a value by its key alone, wherever it stands, in any
// case, as the walk matches keys.
func SecretKeys() []string {
	var out []string
	for _, p := range patchSecretPaths() {
		out = append(out, p[len(p)-1])
	}
	return out
}
