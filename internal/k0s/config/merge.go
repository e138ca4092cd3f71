package config

import "fmt"

// Merge merges patch into base as k0s.patch is documented to merge: maps
// merge key by key, everything else (scalars, lists, a map replacing a
// scalar) replaces. Neither argument is modified.
func Merge(base, patch map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(patch))
	for k, v := range base {
		out[k] = v
	}
	for k, pv := range patch {
		bm, bok := asMap(out[k])
		pm, pok := asMap(pv)
		if bok && pok {
			out[k] = Merge(bm, pm)
			continue
		}
		out[k] = pv
	}
	return out
}

func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case map[any]any:
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[fmt.Sprint(k)] = v
		}
		return out, true
	}
	return nil, false
}
