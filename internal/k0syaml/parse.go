package k0syaml

import (
	"errors"
	"reflect"

	"sigs.k8s.io/yaml"
)

// How k0s reads k0s.yaml (v1.36.3+k0s.0): ConfigFromBytes
// (pkg/apis/k0s/v1beta1/clusterconfig_types.go:313) decodes it with
// internal/pkg/strictyaml, whose YAML half is sigs.k8s.io/yaml: the YAML
// is turned into JSON (YAMLToJSON) and decoded with encoding/json, which
// matches a key to a field's name exactly or else case-insensitively
// (encoding/json's Unmarshal documentation: "preferring an exact match but
// also accepting a case-insensitive match"; the fold is Unicode's simple
// folding, as strings.EqualFold's, so `dataſource`, with a long s, sets
// dataSource too), so `AUTHPASS:` sets authPass, and of two spellings of
// one key the later one wins. k0s/rules mirrors the same decoding for
// what k0s refuses; Redact finds keys with strings.EqualFold for the same
// reason.

// Parse reads the agent's fields out of a k0s.yaml as k0s reads them
// (see above): keys in any case, YAML 1.1 scalars, unknown keys ignored.
// A file k0s could not decode is an error that quotes nothing of it.
func Parse(data []byte) (Node, error) {
	w := reflect.New(wireDocument())
	if err := yaml.Unmarshal(data, w.Interface()); err != nil {
		return Node{}, errors.New("k0s.yaml does not decode as a ClusterConfig") // the error may quote a value
	}
	var doc document
	fromWire(reflect.ValueOf(&doc).Elem(), w.Elem())
	return doc.Spec, nil
}
