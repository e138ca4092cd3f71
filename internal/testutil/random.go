package testutil

import (
	"crypto/rand"
	"encoding/hex"
)

// RandHex is n random hex digits, for the names of what a test makes in
// places every test shares: interfaces (WireGuard's userspace sockets in
// /run/wireguard are one directory for all namespaces), namespaces,
// machines, machine-ids. Tests running at once then never collide.
func RandHex(n int) string {
	b := make([]byte, (n+1)/2)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return hex.EncodeToString(b)[:n]
}
