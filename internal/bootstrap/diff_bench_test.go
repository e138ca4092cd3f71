package bootstrap

import "testing"

// BenchmarkDiff6000Peers is the diff plan --again shows for a wg-quick file
// of 6,000 peers (36,000 lines) when 120 of its peers move, and when all
// of them do.
func BenchmarkDiff6000Peers(b *testing.B) {
	before := wgQuickPeers(6000, func(int) bool { return false })
	for _, c := range []struct {
		name  string
		every int
	}{{"120-moved", 50}, {"all-moved", 1}} {
		b.Run(c.name, func(b *testing.B) {
			after := wgQuickPeers(6000, func(i int) bool { return i%c.every == 0 })
			b.SetBytes(int64(len(before) + len(after)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := unifiedDiff(before, after); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
