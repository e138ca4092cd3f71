package yamlfast

import (
	"bytes"
	"testing"

	"gopkg.in/yaml.v3"
)

// The fast path exists to cut the YAML share of validating a 2,000-peer
// config (about 342 KB); the goal is at least 5x yaml.v3's speed with far
// fewer allocations. Compare BenchmarkParse with BenchmarkYAMLv3.

func BenchmarkParse(b *testing.B) {
	for _, n := range []int{10, 200, 2000} {
		data := peersConfig(n)
		b.Run(sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, ok := Parse(data); !ok {
					b.Fatal("generated config left to yaml.v3")
				}
			}
		})
	}
}

func BenchmarkYAMLv3(b *testing.B) {
	for _, n := range []int{10, 200, 2000} {
		data := peersConfig(n)
		b.Run(sizeName(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var root yaml.Node
				if err := yaml.NewDecoder(bytes.NewReader(data)).Decode(&root); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func sizeName(n int) string {
	switch n {
	case 10:
		return "peers=10"
	case 200:
		return "peers=200"
	}
	return "peers=2000"
}
