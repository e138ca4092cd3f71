package schema

import (
	"math/rand/v2"
	"slices"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"
)

// parseKey takes exactly what wgtypes takes and spells back the same way.
func TestParseKeyIsCanonicalWgtypes(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 1))
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\n\r -_"
	inputs := []string{"", "=", "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=", "xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dh="}
	for range 20000 {
		b := []byte("xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=")
		for range rng.IntN(3) + 1 {
			switch i := rng.IntN(len(b) + 1); rng.IntN(3) {
			case 0:
				if i < len(b) {
					b[i] = alphabet[rng.IntN(len(alphabet))]
				}
			case 1:
				b = slices.Insert(b, i, alphabet[rng.IntN(len(alphabet))])
			default:
				if i < len(b) {
					b = slices.Delete(b, i, i+1)
				}
			}
		}
		inputs = append(inputs, string(b))
	}
	accepted := 0
	for _, s := range inputs {
		want, err := wgtypes.ParseKey(s)
		wantOK := err == nil && want.String() == s
		got, ok := parseKey(s)
		if ok != wantOK || (ok && got != want) {
			t.Fatalf("parseKey(%q) = %v, %v; wgtypes canonical: %v, %v", s, got, ok, want, wantOK)
		}
		if ok {
			accepted++
		}
	}
	if accepted < 1000 || accepted == len(inputs) {
		t.Errorf("%d of %d inputs accepted: the inputs do not exercise both answers", accepted, len(inputs))
	}
}
