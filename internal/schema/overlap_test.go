package schema

import (
	"math/rand/v2"
	"net/netip"
	"testing"
)

// bruteClashes is the quadratic definition clashes must agree with.
func bruteClashes(spans []span) map[int]int {
	out := map[int]int{}
	for i := range spans {
		for j := range spans {
			a, b := &spans[i], &spans[j]
			if a.owner == b.owner || !b.before(a) || !a.prefix.Overlaps(b.prefix) {
				continue
			}
			if cur, ok := out[i]; !ok || b.before(&spans[cur]) {
				out[i] = j
			}
		}
	}
	return out
}

func TestClashesMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 500; round++ {
		n := 1 + r.IntN(40)
		spans := make([]span, n)
		for i := range spans {
			var addr netip.Addr
			bits := 0
			if r.IntN(4) == 0 {
				var b [16]byte
				b[0], b[1], b[15] = 0xfd, byte(r.IntN(3)), byte(r.IntN(8))
				addr, bits = netip.AddrFrom16(b), 8+r.IntN(121)
			} else {
				addr, bits = netip.AddrFrom4([4]byte{10, byte(r.IntN(3)), byte(r.IntN(4)), byte(r.IntN(8))}), 8+r.IntN(25)
			}
			spans[i] = span{prefix: netip.PrefixFrom(addr, bits).Masked(), owner: r.IntN(4), line: 1 + r.IntN(20), col: 1 + r.IntN(3), idx: i}
		}
		want := bruteClashes(spans)
		got := clashes(spans)
		if len(got) != len(want) {
			t.Fatalf("round %d: %d clashes, want %d\nspans %+v\ngot %v want %v", round, len(got), len(want), spans, got, want)
		}
		for i, j := range want {
			if got[i] != j {
				t.Fatalf("round %d: span %d (%s) clashes with %d, want %d (%s)", round, i, spans[i].prefix, got[i], j, spans[j].prefix)
			}
		}
	}
}

func TestClashesSameOwnerNeverClash(t *testing.T) {
	p := netip.MustParsePrefix("10.0.0.0/8")
	spans := []span{{prefix: p, owner: 1, line: 1}, {prefix: p, owner: 1, line: 2}}
	if got := clashes(spans); len(got) != 0 {
		t.Errorf("same owner clashed: %v", got)
	}
}
