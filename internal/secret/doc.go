// Package secret holds the contract's secret types and how things are shown
// without their secrets: Value, secret bytes that cannot print themselves;
// Source, a SecretSource that prints with its URL redacted; ShownURL and
// RedactURL, a URL as a message may show it; and the one walk of a value
// for its secrets (walk.go): In, RedactedIn and ReplacedIn find every Value
// by type, Fields and Paths the fields tagged `secret:"kind"`, and Untagged
// the secret fields a type forgot to tag. A Value held in an interface
// (free text such as k0s.patch's map[string]any) is not walked.
//
// It is a leaf: no I/O, no network, nothing but the standard library, so
// the schema, which must not link the network, can hold these types.
// Resolving a Source at boot is package resolve's.
package secret
