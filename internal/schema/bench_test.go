package schema

import (
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// bigConfig is a controller with 3 interfaces of 2,000 peers each, every peer
// with its own /32, the shape of a large hub.
func bigConfig(tb testing.TB, ifaces, peers int) []byte {
	tb.Helper()
	var b strings.Builder
	b.WriteString("role: controller\nfirewall:\n  clusterPorts: overlay\nwireguard:\n")
	for i := 0; i < ifaces; i++ {
		fmt.Fprintf(&b, "  - name: wg%d\n    address: 172.%d.0.1/16\n    listenPort: %d\n", i, 16+i, 51820+i)
		if i == 0 {
			b.WriteString("    nodeAddress: true\n")
		}
		fmt.Fprintf(&b, "    privateKeyFrom: {credential: corium.wg%d}\n    peers:\n", i)
		for j := 0; j < peers; j++ {
			k := fixture.GenKey(tb)
			fmt.Fprintf(&b, "      - publicKey: %s\n        allowedIPs: [172.%d.%d.%d/32]\n", k.PublicKey(), 16+i, 1+j/250, 1+j%250)
		}
	}
	return []byte(b.String())
}

func TestBigConfigIsValid(t *testing.T) {
	if _, fs, err := Load(bigConfig(t, 3, 2000)); err != nil {
		t.Fatalf("Load: %v (%d findings)", err, len(fs))
	}
}

// BenchmarkValidate6000Peers is the contract's speed goal: 3 interfaces ×
// 2,000 peers validate well under 50 ms.
func BenchmarkValidate6000Peers(b *testing.B) {
	doc, err := Parse(bigConfig(b, 3, 2000))
	if err != nil {
		b.Fatal(err)
	}
	cpu := startCPU()
	for b.Loop() {
		if fs := Validate(doc); len(fs) != 0 {
			b.Fatal(fs)
		}
	}
	cpu.report(b)
}

// BenchmarkLoad6000Peers includes parsing the YAML.
func BenchmarkLoad6000Peers(b *testing.B) {
	data := bigConfig(b, 3, 2000)
	b.SetBytes(int64(len(data)))
	cpu := startCPU()
	for b.Loop() {
		if _, _, err := Load(data); err != nil {
			b.Fatal(err)
		}
	}
	cpu.report(b)
}

// cpuClock reports the process's CPU time per operation next to the wall
// time: on a shared, loaded machine the wall time measures the neighbours,
// the CPU time measures the code.
type cpuClock struct{ start time.Duration }

func processCPU() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func startCPU() cpuClock { return cpuClock{processCPU()} }

func (c cpuClock) report(b *testing.B) {
	b.ReportMetric(float64(processCPU()-c.start)/float64(b.N)/1e6, "cpu-ms/op")
}
