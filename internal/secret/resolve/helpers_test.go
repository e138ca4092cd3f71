package resolve

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// rig is a resolver under a temp root whose every output is captured: the
// log (text), the status lines, and the errors the test adds.
type rig struct {
	root     rootfs.Root
	logs     *syncBuffer
	mu       sync.Mutex
	statuses []string
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func newRig(t testing.TB) *rig {
	return &rig{root: rootfs.New(t.TempDir()), logs: &syncBuffer{}}
}

// resolver retries every 10-50ms unless opts say otherwise.
func (g *rig) resolver(opts ...Option) *Resolver {
	base := []Option{
		WithLogger(slog.New(slog.NewTextHandler(g.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))),
		WithStatus(func(line string) { g.mu.Lock(); g.statuses = append(g.statuses, line); g.mu.Unlock() }),
		WithBackoff(retry.Policy{Base: 10 * time.Millisecond, Cap: 50 * time.Millisecond}),
		WithCredentialsDir(""),
	}
	return NewResolver(g.root, append(base, opts...)...)
}

func (g *rig) status() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.statuses...)
}

// write puts content at the node path p under the root.
func (g *rig) write(t *testing.T, p, content string) {
	t.Helper()
	if _, err := g.root.WriteFile(p, []byte(content), 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
}

// trusting is the real client, trusting exactly the servers given.
func trusting(servers ...*httptest.Server) *fetch.Client {
	return fetch.New(fetch.WithRootCAs(tlsserver.CertPool(servers...)))
}
