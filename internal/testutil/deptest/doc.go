// Package deptest checks what a package links, from a test, in the style of
// tailscale's tstest/deptest: it lists packages with `go list -deps -json`
// and fails the test when one of them imports or links what its tier
// refuses, naming the package that brings it in and the reason.
//
// Layout is the one table of the module's packages and their tiers (the pure
// core, the stage that performs I/O, drivers, test equipment; tier.go and
// layout.go), and TestLayout holds every package to it: a package missing
// from the table fails, and so does an entry that names no package. A tier
// refuses some imports only as the package's own (go list's Imports: fmt
// itself imports os) and others anywhere it links (go list's Deps). Forbid
// is the same check for one package and a list, for a test that wants it.
//
// It reads nothing but the go tool's answer and changes nothing.
package deptest
