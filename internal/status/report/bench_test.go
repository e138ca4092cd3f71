package report

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// BenchmarkInspect6000Peers is one status of a node whose interface carries
// 6,000 peers, every one on the device and reachable, through the fakes: the
// cost of the inspection itself, without the kernel round trips.
func BenchmarkInspect6000Peers(b *testing.B) {
	const peers = 6000
	n := newNode(b, "wg0")
	var cfg strings.Builder
	cfg.WriteString(strings.SplitAfter(n.config(), "    peers:\n")[0])
	o, dev := healthy(b, n, 10*time.Second)
	dev.Peers = dev.Peers[:0]
	for i := range peers {
		k := fixture.GenKey(b).PublicKey()
		ip := fmt.Sprintf("10.%d.%d.%d", 100+i/65536, i/256%256, i%256)
		fmt.Fprintf(&cfg, "      - publicKey: %s\n        allowedIPs: [%s/32]\n", k, ip)
		dev.Peers = append(dev.Peers, wgtypes.Peer{PublicKey: k, AllowedIPs: []net.IPNet{{IP: net.ParseIP(ip).To4(), Mask: net.CIDRMask(32, 32)}}, LastHandshakeTime: t0.Add(-time.Second)})
	}
	cfg.WriteString("firewall:\n  clusterPorts: overlay\n")
	root := rootfs.New(b.TempDir())
	provisionWith(b, root, cfg.String(), "")
	o.Root = root
	b.ResetTimer()
	for b.Loop() {
		r := Inspect(context.Background(), o)
		if r.Verdict.State != OK || len(r.Interfaces[0].Peers) != peers {
			b.Fatalf("verdict %q with %d peers", r.Verdict.Line, len(r.Interfaces[0].Peers))
		}
	}
}

// BenchmarkInspectLive is one status of a live node: a userspace WireGuard
// device with a handshaken peer and the guard in a namespace, read through
// wgctrl, netlink and nftables (no systemd), plus the files under the root.
func BenchmarkInspectLive(b *testing.B) {
	host.RequireRoot(b, "ip", "wg", "wg-quick", "wireguard-go", "ping")
	a := newLiveLab(b, "csb").a
	wg := netns.WireGuardClient(b)
	o := a.options(b, wg)
	for b.Loop() {
		if r := Inspect(context.Background(), o); r.Verdict.Line != "ok (could not check: unit states)" {
			b.Fatalf("verdict %q", r.Verdict.Line)
		}
	}
}
