package schema

import "strings"

// secretPairs: a secret given both inline and through its SecretSource is
// refused, whichever it is. The rule is derived from SecretFields, which
// pairs a `*secret.Value` field with the `*secret.Source` field named as it
// with "From" after, by their `secret` tags: a secret field added to
// types.go has it without a line here. Written by hand for each field, it
// was missed for a new one, and the fetched value then silently won over
// the inline one the document also states.
func (v *crossCheck) secretPairs() {
	for _, f := range v.secrets() {
		if f.Inline != nil && f.From != nil {
			name := fieldName(f.Path)
			v.errorf(f.FromPath(), "give only one of %s and %s", name, name+fromSuffix)
		}
	}
}

// fieldName is the last field of a path (presharedKey of
// wireguard[0].peers[1].presharedKey): the message names the two fields as
// their struct spells them, the path being attached to the finding.
func fieldName(path string) string {
	return path[strings.LastIndexByte(path, '.')+1:]
}
