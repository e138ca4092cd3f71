package resolve

import (
	"context"
	"net/http"
	"testing"

	"github.com/corium/corium-agent/internal/secret"

	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// BenchmarkResolveFile is the cost of one file source that is there: open,
// read, trim, log the resolution.
func BenchmarkResolveFile(b *testing.B) {
	g := newRig(b)
	if _, err := g.root.WriteFile("/run/corium/wg0.key", []byte("c2VjcmV0LWtleS1ieXRlcw==\n"), 0o600, 0o700); err != nil {
		b.Fatal(err)
	}
	r := NewResolver(g.root, WithLogger(discard), WithStatus(func(string) {}))
	src := secret.Source{File: "/run/corium/wg0.key"}
	for b.Loop() {
		if _, err := r.Resolve(context.Background(), "wireguard[0].privateKeyFrom", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolveURL is one url source answered at once by a local TLS
// server over a kept-alive connection.
func BenchmarkResolveURL(b *testing.B) {
	srv := tlsserver.New(b, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("token")) }))
	r := NewResolver(newRig(b).root, WithFetch(trusting(srv)), WithLogger(discard), WithStatus(func(string) {}))
	src := secret.Source{URL: srv.URL + "/t"}
	for b.Loop() {
		if _, err := r.Resolve(context.Background(), "join.tokenFrom", src); err != nil {
			b.Fatal(err)
		}
	}
}
