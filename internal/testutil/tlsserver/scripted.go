package tlsserver

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// Answer is one response of a ScriptedServer.
type Answer struct {
	Status     int
	Body       string
	RetryAfter string // the Retry-After header; "" for none
	Location   string // the Location header, for a redirect; "" for none
}

// Request is what a ScriptedServer saw of one request.
type Request struct {
	Time   time.Time // when it arrived, for checking the gaps of a backoff
	Path   string
	Header http.Header
}

// ScriptedServer is a local server answering the n-th request with the n-th
// Answer of its script, the last one repeating, and recording every request.
// A test of retries, redirects and headers states the server's whole
// behaviour in one line and reads back exactly what the client sent.
type ScriptedServer struct {
	*httptest.Server
	script []Answer
	mu     sync.Mutex
	seen   []Request
}

// NewScriptedServer starts a ScriptedServer over TLS (trust it with CertPool
// or CAFile); it is closed when the test ends. The script must not be empty.
func NewScriptedServer(t testing.TB, script ...Answer) *ScriptedServer {
	t.Helper()
	return startScripted(t, script, httptest.NewTLSServer)
}

// NewScriptedHTTPServer is NewScriptedServer over plain HTTP, for what is
// only allowed, or must be refused, without TLS.
func NewScriptedHTTPServer(t testing.TB, script ...Answer) *ScriptedServer {
	t.Helper()
	return startScripted(t, script, httptest.NewServer)
}

func startScripted(t testing.TB, script []Answer, start func(http.Handler) *httptest.Server) *ScriptedServer {
	t.Helper()
	if len(script) == 0 {
		t.Fatal("a scripted server needs at least one answer")
	}
	s := &ScriptedServer{script: script}
	s.Server = start(s)
	t.Cleanup(s.Close)
	return s
}

// ServeHTTP records the request and writes the script's answer for it.
func (s *ScriptedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	n := len(s.seen)
	s.seen = append(s.seen, Request{Time: time.Now(), Path: r.URL.Path, Header: r.Header.Clone()})
	s.mu.Unlock()
	a := s.script[min(n, len(s.script)-1)]
	if a.RetryAfter != "" {
		w.Header().Set("Retry-After", a.RetryAfter)
	}
	if a.Location != "" {
		w.Header().Set("Location", a.Location)
	}
	w.WriteHeader(a.Status)
	_, _ = w.Write([]byte(a.Body))
}

// Requests is every request served so far, in order.
func (s *ScriptedServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.seen...)
}

// Count is how many requests were served so far.
func (s *ScriptedServer) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}
