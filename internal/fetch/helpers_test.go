package fetch

import (
	"crypto/x509"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/retry"
)

// recorder is a local TLS server answering from a script, one status per
// request (the last one repeats), and remembering when each request came.
type recorder struct {
	*httptest.Server
	mu       sync.Mutex
	times    []time.Time
	requests []*http.Request
}

type answer struct {
	status     int
	body       string
	retryAfter string
	location   string
}

func newRecorder(t *testing.T, script ...answer) *recorder {
	t.Helper()
	r := &recorder{}
	r.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		n := len(r.times)
		r.times = append(r.times, time.Now())
		r.requests = append(r.requests, req.Clone(req.Context()))
		r.mu.Unlock()
		a := script[min(n, len(script)-1)]
		if a.retryAfter != "" {
			w.Header().Set("Retry-After", a.retryAfter)
		}
		if a.location != "" {
			w.Header().Set("Location", a.location)
		}
		w.WriteHeader(a.status)
		_, _ = w.Write([]byte(a.body))
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.times)
}

// fastClient trusts r's certificate and retries in milliseconds.
func fastClient(r *httptest.Server) *Client {
	return New(WithRootCAs(pool(r)), WithBackoff(retry.Policy{Base: 10 * time.Millisecond, Cap: 50 * time.Millisecond}))
}

func pool(servers ...*httptest.Server) *x509.CertPool {
	p := x509.NewCertPool()
	for _, s := range servers {
		p.AddCert(s.Certificate())
	}
	return p
}
