package yamlfast

import (
	"bytes"
	"strconv"
	"testing"

	"gopkg.in/yaml.v3"
)

// The fast path exists to cut the YAML share of validating a 2,000-peer
// config (about 342 KB); the goal is at least 5x yaml.v3's speed with far
// fewer allocations. Compare BenchmarkParse with BenchmarkYAMLv3.

func BenchmarkParse(b *testing.B) {
	forSizes(b, func(b *testing.B, data []byte) {
		if _, ok := Parse(data); !ok {
			b.Fatal("generated config left to yaml.v3")
		}
	})
}

func BenchmarkYAMLv3(b *testing.B) {
	forSizes(b, func(b *testing.B, data []byte) {
		var root yaml.Node
		if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&root); err != nil {
			b.Fatal(err)
		}
	})
}

// forSizes runs parse on the 10-, 200- and 2,000-peer configs.
func forSizes(b *testing.B, parse func(b *testing.B, data []byte)) {
	for _, n := range []int{10, 200, 2000} {
		data := peersConfig(n)
		b.Run("peers="+strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				parse(b, data)
			}
		})
	}
}
