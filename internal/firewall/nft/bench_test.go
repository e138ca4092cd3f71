package nft

import (
	"context"
	"testing"

	"github.com/google/nftables"

	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// benchConn is a real nftables connection into a fresh namespace.
func benchConn(b *testing.B) *nftables.Conn {
	host.RequireRoot(b, "ip")
	return netns.New(b, "fw-bench").Nftables(b)
}

// BenchmarkApply is one apply as first boot and every boot run it: the batch
// plus the read-back.
func BenchmarkApply(b *testing.B) {
	conn := benchConn(b)
	g := mustRender(b)
	for b.Loop() {
		if err := Apply(context.Background(), conn, g); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkState is `corium-agent firewall show` against a loaded guard.
func BenchmarkState(b *testing.B) {
	conn := benchConn(b)
	g := mustRender(b)
	if err := Apply(context.Background(), conn, g); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if r, err := State(conn, g); err != nil || r.Status != Current {
			b.Fatal(r, err)
		}
	}
}
