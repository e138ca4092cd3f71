package rules

import (
	"sort"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
)

// k0s decodes its configuration with sigs.k8s.io/yaml into its v1beta1
// types (ConfigFromBytes, pkg/apis/k0s/v1beta1/clusterconfig_types.go:307,
// through internal/pkg/strictyaml), and encoding/json, under it, matches a
// key to a field exactly first and then without regard to case, Unicode's
// simple folds included (ſ is s, the Kelvin sign is k): `K0sApiPort`,
// `K0SAPIPORT` and `k0sapiport` with a Kelvin sign for its k all set
// k0sApiPort. Whoever reads the configuration by exact key (the agent's
// merge and its network read-back) would miss them; so rather than emulate
// the fold everywhere, a key spelled otherwise than its field's json tag is
// named here, and refused by the caller: the exact-key readers are then
// right by construction.

// Respelling is a key of a ClusterConfig that k0s reads as one of its
// fields though it is not spelled as the field's json tag.
type Respelling struct {
	// Path is the key's dotted path as written (spec.api.Port), a list
	// item as name[i].
	Path string
	// Field is the json tag k0s reads it as.
	Field string
	// Twin is set when the same object also holds the field under its own
	// spelling (or under another fold of it): two keys for one field, of
	// which encoding/json keeps the one it meets last.
	Twin bool
}

// Respelled lists the keys of doc that k0s's decoder matches to a field of
// its types only without regard to case, in the order of their paths. It
// descends through such keys as k0s does, and stops at the values k0s takes
// whole (maps of strings, worker profiles' values, raw extensions).
func Respelled(doc map[string]any) []Respelling {
	var out []Respelling
	respelled(doc, clusterConfigType, "", &out)
	return out
}

func respelled(m map[string]any, t *typ, path finding.Path, out *[]Respelling) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, key := range keys {
		f, ok := t.field(key)
		if !ok {
			continue
		}
		p := path.Field(key)
		if f.name != key {
			twin := false
			for _, other := range keys {
				twin = twin || (other != key && FoldEqual(other, f.name))
			}
			*out = append(*out, Respelling{Path: p.String(), Field: f.name, Twin: twin})
		}
		switch v := m[key].(type) {
		case map[string]any:
			if f.kind == kObject {
				respelled(v, f.of, p, out)
			}
		case []any:
			if f.kind == kList {
				for i, item := range v {
					if im, isMap := item.(map[string]any); isMap {
						respelled(im, f.of, p.Index(i), out)
					}
				}
			}
		}
	}
}

// FoldEqual is how encoding/json matches a key to a json tag when no tag is
// spelled exactly as the key: bytes.EqualFold, Unicode's simple folding
// (encoding/json's foldName is documented identical to it).
func FoldEqual(a, b string) bool { return strings.EqualFold(a, b) }

// ArgBlocks are the dotted paths of the ClusterConfig's blocks that hand a
// component flags through extraArgs and rawArgs, read from the types, so a
// block k0s adds is found without a list to extend.
func ArgBlocks() []string { return blocksWith("extraArgs") }

// PatchBlocks are the dotted paths of the blocks whose `patches` k0s applies
// to the manifests it deploys for them.
func PatchBlocks() []string { return blocksWith("patches") }

// EnvBlocks are the dotted paths of the blocks whose envVars k0s writes into
// a component's environment.
func EnvBlocks() []string { return blocksWith("envVars") }

// blocksWith walks the types from the ClusterConfig down for objects holding
// a field of that name; a type met again below itself is not walked twice.
func blocksWith(name string) []string {
	var out []string
	var walk func(t *typ, path finding.Path, seen map[*typ]bool)
	walk = func(t *typ, path finding.Path, seen map[*typ]bool) {
		if seen[t] {
			return
		}
		seen[t] = true
		defer delete(seen, t)
		for _, f := range t.fields {
			if f.name == name {
				out = append(out, path.String())
			}
			if f.kind == kObject {
				walk(f.of, path.Field(f.name), seen)
			}
		}
	}
	walk(clusterConfigType, "", map[*typ]bool{})
	sort.Strings(out)
	return out
}
