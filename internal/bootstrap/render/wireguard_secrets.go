package render

import "github.com/corium/corium-agent/internal/secret"

// Secrets maps a field path to its resolved value. A secret read from a
// SecretSource is keyed by the path of its "...From" field, spelled as in the
// document: "wireguard[0].privateKeyFrom",
// "wireguard[0].peers[1].presharedKeyFrom". An inline value may be keyed by
// the inline field's path ("wireguard[0].privateKey"); when it is not in the
// map it is taken from the config itself.
type Secrets = map[string]secret.Value

// lookupSecret finds the value of the secret field at path (the inline
// field's path): the resolved "From" value first, then a resolved inline
// value, then the inline value in the config. ok is false when none is set.
func lookupSecret(secrets Secrets, path string, inline *secret.Value) (secret.Value, bool) {
	if v, ok := secrets[path+"From"]; ok && !v.IsZero() {
		return v, true
	}
	if v, ok := secrets[path]; ok && !v.IsZero() {
		return v, true
	}
	if inline != nil && !inline.IsZero() {
		return *inline, true
	}
	return secret.Value{}, false
}
