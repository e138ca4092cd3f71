package bootstrap_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/firstboot"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
)

// The benchmarks run the first boot's three costs at 10, 200 and 2,000
// peers, on the configuration bench/gen.py writes for `make bench`, so the
// growth from size to size can be read off ns/op (near-linear is the goal):
//
//	go test -run '^$' -bench . -benchmem ./internal/bootstrap/

var benchSizes = []int{10, 200, 2000}

// benchConfig is one overlay interface with n peers, the k0s ordering
// implied; keys are well formed and fixed for a given n.
func benchConfig(n int) []byte {
	rng := rand.New(rand.NewPCG(uint64(n), 1))
	key := func() string {
		var b [32]byte
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		return base64.StdEncoding.EncodeToString(b[:])
	}
	var b strings.Builder
	b.WriteString("role: controller+worker\nnode:\n  name: bench-node\nwireguard:\n  - name: wg0\n    address: 10.10.255.1/16\n    listenPort: 51820\n    nodeAddress: true\n    privateKey: " + key() + "\n    peers:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - publicKey: %s\n        endpoint: 198.51.100.%d:%d\n        allowedIPs: [10.10.%d.%d/32]\n        persistentKeepalive: 25\n",
			key(), i%250+1, 51820+i/250, i/250, i%250+2)
	}
	return []byte(b.String())
}

func forSizes(b *testing.B, run func(b *testing.B, data []byte)) {
	for _, n := range benchSizes {
		data := benchConfig(n)
		b.Run(strconv.Itoa(n)+"-peers", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			run(b, data)
		})
	}
}

// BenchmarkParseValidate is what `corium-agent validate` does per file.
func BenchmarkParseValidate(b *testing.B) {
	forSizes(b, func(b *testing.B, data []byte) {
		for b.Loop() {
			if _, _, err := schema.Load(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRender is the pure plan from a loaded configuration.
func BenchmarkRender(b *testing.B) {
	forSizes(b, func(b *testing.B, data []byte) {
		cfg, _, err := schema.Load(data)
		if err != nil {
			b.Fatal(err)
		}
		in := bootstrap.Inputs{
			Config:   cfg,
			Secrets:  bootstrap.Secrets{},
			Decision: bootstrap.SelectNodeAddress(cfg, nil),
			Hostname: bootstrap.DecideHostname(cfg, bootstrap.HostnameFacts{}),
		}
		for b.Loop() {
			if _, err := bootstrap.Render(in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkApplyRoot is `apply --root` into an empty root: source, validate,
// render and every write (each one fsynced), as on a first boot.
func BenchmarkApplyRoot(b *testing.B) {
	forSizes(b, func(b *testing.B, data []byte) {
		config := filepath.Join(b.TempDir(), "config.yaml")
		if err := os.WriteFile(config, data, 0o600); err != nil {
			b.Fatal(err)
		}
		parent := b.TempDir()
		i := 0
		for b.Loop() {
			i++
			root := filepath.Join(parent, strconv.Itoa(i))
			if _, err := firstboot.Run(context.Background(), firstboot.Options{Root: rootfs.New(root), ConfigFile: config}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
