package tlsserver

import (
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
)

// New starts a local HTTPS server with h and closes it when the test
// ends. Its certificate is httptest's, which no system store holds, so a
// client reaches it only through CertPool or CAFile: a test proves trust
// instead of assuming it.
func New(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewTLSServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// CertPool trusts exactly the servers' certificates, for an in-process
// client (fetch.WithRootCAs) that must reach them and nothing else.
func CertPool(servers ...*httptest.Server) *x509.CertPool {
	p := x509.NewCertPool()
	for _, s := range servers {
		p.AddCert(s.Certificate())
	}
	return p
}

// CertPEM is cert in PEM, the form a trust store file holds.
func CertPEM(cert *x509.Certificate) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Raw})
}

// CAFile writes srv's certificate as PEM into a file the test owns and
// returns its path, for SSL_CERT_FILE: Go reads the system store once per
// process, so a child process (the built agent, a re-run test binary) is how
// a test puts a server in the system store.
func CAFile(t testing.TB, srv *httptest.Server) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(p, CertPEM(srv.Certificate()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
