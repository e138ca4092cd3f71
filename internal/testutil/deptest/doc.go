// Package deptest checks what a package links, from its test: it lists the
// package's transitive dependencies with `go list -deps -json` and fails the
// test when one of them is forbidden, naming the package that imports it.
// It is how a package's doc.go promise ("pure", "links no net/http") is held
// to, in the style of tailscale's tstest/deptest.
//
// It reads nothing but the go tool's answer and changes nothing.
package deptest
