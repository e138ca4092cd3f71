package testutil

import (
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// GenKey is a fresh WireGuard private key. A test draws its keys instead of
// fixing them, so no value passes by matching a constant in the code, and
// two namespaces or nodes of one test never share one by accident. Its
// String is the base64 text a configuration or a secret file holds.
func GenKey(t testing.TB) wgtypes.Key {
	t.Helper()
	k, err := wgtypes.GeneratePrivateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}
