package resolve

import (
	"bytes"
	"crypto/x509"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/rootfs"
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

func trusting(servers ...*httptest.Server) *fetch.Client {
	p := x509.NewCertPool()
	for _, s := range servers {
		p.AddCert(s.Certificate())
	}
	return fetch.New(fetch.WithRootCAs(p))
}

// scripted is a TLS server answering from a script (the last entry repeats),
// counting requests and keeping their Authorization headers.
type scripted struct {
	*httptest.Server
	mu    sync.Mutex
	auth  []string
	times []time.Time
}

type reply struct {
	status     int
	body       string
	header     map[string]string
	redirectTo string
}

func newScripted(t *testing.T, script ...reply) *scripted {
	s := &scripted{}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		n := len(s.auth)
		s.auth = append(s.auth, r.Header.Get("Authorization"))
		s.times = append(s.times, time.Now())
		s.mu.Unlock()
		a := script[min(n, len(script)-1)]
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		if a.redirectTo != "" {
			http.Redirect(w, r, a.redirectTo, http.StatusFound)
			return
		}
		w.WriteHeader(a.status)
		_, _ = w.Write([]byte(a.body))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *scripted) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.auth)
}

func credentialsDir(t *testing.T, creds map[string]string) string {
	dir := t.TempDir()
	for name, v := range creds {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(v), 0o400); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
