package chain

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// TestMain makes httptest's certificate the system trust store, the way an
// operator's CA reaches the agent (SSL_CERT_FILE). Go loads the store once per
// process, so this happens before any test runs; every httptest TLS server
// shares that certificate.
func TestMain(m *testing.M) {
	srv := httptest.NewTLSServer(http.NotFoundHandler())
	cert := srv.Certificate()
	srv.Close()
	dir, err := os.MkdirTemp("", "corium-source-ca-")
	if err != nil {
		panic(err)
	}
	ca := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(ca, tlsserver.CertPEM(cert), 0o644); err != nil {
		panic(err)
	}
	os.Setenv("SSL_CERT_FILE", ca)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// server is a test server and the count of the requests (or, for one
// that refuses the handshake, the handshakes) it saw.
type server struct {
	*httptest.Server
	hits func() int
}

// serve answers with the statuses in order, then with the document.
func serve(t *testing.T, tlsOn bool, body string, statuses ...int) *server {
	t.Helper()
	var script []tlsserver.Answer
	for _, code := range statuses {
		script = append(script, tlsserver.Answer{Status: code})
	}
	script = append(script, tlsserver.Answer{Status: http.StatusOK, Body: body})
	var s *tlsserver.ScriptedServer
	if tlsOn {
		s = tlsserver.NewScriptedServer(t, script...)
	} else {
		s = tlsserver.NewScriptedHTTPServer(t, script...)
	}
	return &server{s.Server, s.Count}
}

// fastFetch is the real client with a short backoff, so a test of "retried
// until the wait" takes milliseconds instead of the production seconds.
func fastFetch() *fetch.Client {
	return fetch.New(fetch.WithBackoff(retry.Policy{Base: 5 * time.Millisecond, Cap: 20 * time.Millisecond}))
}

func findCmdline(t *testing.T, line string, client *fetch.Client) (*Result, string, error) {
	t.Helper()
	root := fakeRoot(t, map[string]string{CmdlinePath: line + "\n", DefaultPath: docDefault})
	var log strings.Builder
	res, err := Find(t.Context(), Options{Root: root, Fetch: client, Logger: slogTo(&log)})
	return res, log.String(), err
}

func TestHTTPSUsed(t *testing.T) {
	srv := serve(t, true, docCmdline)
	// nil Fetch: the chain makes its own client from the system store.
	res, _, err := findCmdline(t, "corium.config="+srv.URL+"/nodes/w1.yaml", nil)
	if err != nil {
		t.Fatalf("Find: %v", err)
	}
	if res.Source != NameCmdline || string(res.Data) != docCmdline {
		t.Fatalf("source %q data %q", res.Source, res.Data)
	}
	if a := attempt(t, res, NameCmdline); a.Reason != "corium.config="+srv.URL+"/nodes/w1.yaml" {
		t.Errorf("used with %q, want the URL", a.Reason)
	}
}

// A server that is not there yet (404, then busy) answers within the wait,
// given or the default.
func TestHTTPSRetriedUntilItAnswers(t *testing.T) {
	for _, wait := range []string{" corium.config.wait=1m", ""} {
		srv := serve(t, true, docCmdline, http.StatusNotFound, http.StatusServiceUnavailable, http.StatusBadGateway, http.StatusTooManyRequests)
		res, log, err := findCmdline(t, "corium.config="+srv.URL+"/c.yaml corium.config.sha256="+sha(docCmdline)+wait, fastFetch())
		if err != nil {
			t.Fatalf("%q: Find: %v\n%s", wait, err, log)
		}
		if res.Source != NameCmdline || string(res.Data) != docCmdline {
			t.Fatalf("source %q data %q", res.Source, res.Data)
		}
		if n := srv.hits(); n != 5 {
			t.Errorf("%d requests, want 4 failures and the answer", n)
		}
		if got := strings.Count(log, "fetching the configuration"); got != 4 {
			t.Errorf("%d retry lines logged, want 4:\n%s", got, log)
		}
		if !strings.Contains(attempt(t, res, NameCmdline).Reason, "(sha256 verified)") {
			t.Error("the pin is not reported as verified")
		}
	}
}

// Shutdown ends a long wait at once, as a failure (never a fall-through).
func TestHTTPSWaitCancelled(t *testing.T) {
	srv := serve(t, true, docCmdline, repeat(http.StatusServiceUnavailable, 100000)...)
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	root := fakeRoot(t, map[string]string{CmdlinePath: "corium.config=" + srv.URL + " corium.config.wait=1h", DefaultPath: docDefault})
	res, err := Find(ctx, Options{Root: root, Fetch: fastFetch(), Logger: slogTo(io.Discard)})
	if err == nil || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v, want the cancellation", err)
	}
	if res.Source != "" || res.Tried[len(res.Tried)-1].Outcome != Failed {
		t.Errorf("tried %s, source %q", outcomes(res), res.Source)
	}
}

func TestHTTPSFailureStops(t *testing.T) {
	untrusted := untrustedServer(t, docCmdline)
	tooBig := serve(t, true, strings.Repeat("#", maxBody+1))
	for _, tc := range []struct {
		name   string
		srv    *server
		args   string
		reason string
		hits   int // requests the server must have seen; 0 = do not check
	}{
		{"500 fails at once", serve(t, true, docCmdline, http.StatusInternalServerError), "", "500", 1},
		{"403 fails at once", serve(t, true, docCmdline, http.StatusForbidden), "", "403", 1},
		{"untrusted certificate", untrusted, "", "certificate is not signed by a CA of the system trust store", 1},
		{"digest mismatch", serve(t, true, docCmdline), " corium.config.sha256=" + sha("other"), "digest mismatch", 1},
		{"the wait runs out", serve(t, true, docCmdline, repeat(http.StatusServiceUnavailable, 1000)...), " corium.config.wait=300ms", "503", 0},
		{"body over 1 MiB", tooBig, "", "too large", 1},
		{"empty body", serve(t, true, ""), "", "the document is empty", 1},
		{"redirect to http", redirectTo(t, "http://127.0.0.1:9/c.yaml"), "", "redirect leaves https", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			res, log, err := findCmdline(t, "corium.config="+tc.srv.URL+"/c.yaml?token=SECRETQUERY"+tc.args, fastFetch())
			if err == nil {
				t.Fatalf("Find used %s; want cmdline to fail and stop the chain", res.Source)
			}
			last := res.Tried[len(res.Tried)-1]
			if last.Source != NameCmdline || last.Outcome != Failed || res.Source != "" {
				t.Fatalf("tried %s, source %q; want the chain to stop at a failed cmdline", outcomes(res), res.Source)
			}
			if !strings.Contains(err.Error(), tc.reason) || !strings.Contains(last.Reason, tc.reason) {
				t.Errorf("error %q, want %q", err, tc.reason)
			}
			if tc.hits != 0 && tc.srv.hits() != tc.hits {
				t.Errorf("the server saw %d requests, want %d", tc.srv.hits(), tc.hits)
			}
			if tc.hits == 0 && (tc.srv.hits() < 2 || time.Since(start) < 300*time.Millisecond) {
				t.Errorf("%d requests in %s: the source was not retried for its wait", tc.srv.hits(), time.Since(start))
			}
			for _, out := range []string{err.Error(), last.Reason, log} {
				if strings.Contains(out, "SECRETQUERY") {
					t.Errorf("the query string leaked: %s", out)
				}
			}
		})
	}
}

// Plain http is accepted with a pin, and the pin is what protects it.
func TestHTTPPinned(t *testing.T) {
	srv := serve(t, false, docCmdline)
	res, _, err := findCmdline(t, "corium.config="+srv.URL+"/c.yaml corium.config.sha256="+sha(docCmdline), fastFetch())
	if err != nil || res.Source != NameCmdline || string(res.Data) != docCmdline {
		t.Fatalf("source %q data %q err %v", res.Source, res.Data, err)
	}
	_, _, err = findCmdline(t, "corium.config="+srv.URL+"/c.yaml corium.config.sha256="+sha("forged"), fastFetch())
	if err == nil || !strings.Contains(err.Error(), "digest mismatch") {
		t.Errorf("a forged http document was not refused: %v", err)
	}
}

func repeat(code, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = code
	}
	return s
}

func redirectTo(t *testing.T, target string) *server {
	t.Helper()
	s := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: http.StatusFound, Location: target})
	return &server{s.Server, s.Count}
}

// untrustedServer serves over TLS with a fresh self-signed certificate that
// is valid for 127.0.0.1 but in no trust store.
func untrustedServer(t *testing.T, body string) *server {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "untrusted"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IsCA:                  true,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	var handshakes atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, body)
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is the point
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}
	// Count handshakes, since a refused certificate never reaches the handler.
	srv.TLS.GetConfigForClient = func(*tls.ClientHelloInfo) (*tls.Config, error) { handshakes.Add(1); return nil, nil }
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return &server{srv, func() int { return int(handshakes.Load()) }}
}
