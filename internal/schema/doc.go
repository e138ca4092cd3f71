// Package schema owns the node configuration contract: the Go types of the
// corium block, strict parsing from YAML with field positions, the defaults
// (applied in one place) and offline validation.
//
// It does no I/O beyond the bytes it is handed: no network, no filesystem, no
// exec, so a workstation validates with exactly the parser a node uses.
// Machine checks (an interface exists, an address is up) belong to bootstrap.
package schema
