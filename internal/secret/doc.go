// Package secret holds the contract's secret types and how things are shown
// without their secrets: Value, secret bytes that cannot print themselves;
// Source, a SecretSource that prints with its URL redacted; ShownURL and
// RedactURL, a URL as a message may show it; and the one walk of a value
// for its secrets (walk.go): In, RedactedIn and ReplacedIn find every Value
// by type, Fields and Paths the fields tagged `secret:"kind"`, and Untagged
// the secret fields a type forgot to tag. A Value held in an interface
// (free text such as k0s.patch's map[string]any) is not walked.
//
// It is the one package that writes the marker, Redacted: a Value prints
// as it, RedactedIn puts it in a copy, and Text (text.go) is the one text
// masker: a document in yaml.v3's line model with the runs and values its
// callers found to hold a secret shown masked, for a finding's window
// (schema), a plan's k0s.yaml and diff (k0syaml, bootstrap); Whole is a
// text hidden whole, and MaskValues masks known values, the last belt.
// Where a secret stands in a text is the callers' to say: Text parses
// nothing. A test (marker_owner_test.go) fails on the marker spelt or
// named in any other package.
//
// It is a leaf: no I/O, no network, nothing but the standard library, so
// the schema, which must not link the network, can hold these types.
// Resolving a Source at boot is package resolve's.
package secret
