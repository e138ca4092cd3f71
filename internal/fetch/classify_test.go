package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/corium/corium-agent/internal/retry"
)

// The transport errors that are hard to provoke on loopback (a name that
// does not resolve yet, a reset, a timeout), sorted as the contract says,
// each into its class, every one carrying the marker the other side could
// have put in it: the class neither shows it nor lets errors.Unwrap or
// errors.As reach the error that held it.
func TestClassify(t *testing.T) {
	const marker = "MARKERSENT"
	wrap := func(err error) error { return &url.Error{Op: "Get", URL: "https://h/p?token=QUERYSECRET", Err: err} }
	leaf := &x509.Certificate{DNSNames: []string{marker + ".example"}}
	for _, tc := range []struct {
		name      string
		err       error
		class     error
		transient bool
	}{
		{"name not resolving yet", &net.DNSError{Err: "no such host " + marker, Name: "vault.example", IsNotFound: true}, ErrNoName, true},
		{"resolver not reachable yet", &net.DNSError{Err: "server misbehaving", Name: marker, IsTemporary: true}, ErrNoName, true},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, ErrRefused, true},
		{"reset", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, ErrReset, true},
		{"unreachable", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ENETUNREACH)}, ErrUnreachable, true},
		{"closed mid-answer", io.ErrUnexpectedEOF, ErrCutShort, true},
		{"closed before answering", io.EOF, ErrCutShort, true},
		{"attempt timed out", context.DeadlineExceeded, ErrTimeout, true},
		{"unknown CA", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{Cert: leaf}}, ErrUntrustedCA, false},
		{"wrong name", &tls.CertificateVerificationError{Err: x509.HostnameError{Certificate: leaf, Host: "h"}}, ErrCertName, false},
		{"expired", x509.CertificateInvalidError{Cert: leaf, Reason: x509.Expired, Detail: marker}, ErrCertExpired, false},
		{"not valid otherwise", x509.CertificateInvalidError{Cert: leaf, Reason: x509.NameConstraintsWithoutSANs, Detail: marker}, ErrCertInvalid, false},
		{"not TLS", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake " + marker}, ErrNotTLS, false},
		{"handshake refused", tls.AlertError(42), ErrTLSRefused, false},
		{"alert from the peer", &net.OpError{Op: "remote error", Err: errors.New("tls: " + marker)}, ErrTLSRefused, false},
		{"proxy refusing", &net.OpError{Op: "proxyconnect", Net: "tcp", Err: errors.New(marker)}, ErrProxy, false},
		{"proxy not up yet", &net.OpError{Op: "proxyconnect", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, ErrProxy, true},
		{"malformed header", textproto.ProtocolError("malformed MIME header line: " + marker), ErrBadAnswer, false},
		{"malformed status line", fmt.Errorf("malformed HTTP status code %q", marker), ErrBadAnswer, false},
		{"redirect to http", ErrInsecureRedirect, ErrInsecureRedirect, false},
		{"redirect loop", ErrTooManyRedirects, ErrTooManyRedirects, false},
		{"shutdown", context.Canceled, context.Canceled, false},
	} {
		err := classify(wrap(tc.err))
		if transient, _ := retry.IsNotYet(err); transient != tc.transient {
			t.Errorf("%s: transient = %v, want %v (%v)", tc.name, transient, tc.transient, err)
		}
		if !errors.Is(err, tc.class) {
			t.Errorf("%s: %v, want the class %q", tc.name, err, tc.class)
		}
		if s := err.Error(); s == "" || strings.Contains(s, "QUERYSECRET") || strings.Contains(s, marker) {
			t.Errorf("%s: message %q", tc.name, s)
		}
		if tc.err != tc.class && (errors.Is(err, tc.err) || errors.As(err, new(*url.Error)) || errors.As(err, new(*net.OpError)) ||
			errors.As(err, new(x509.HostnameError)) || errors.As(err, new(*tls.CertificateVerificationError))) {
			t.Errorf("%s: the cause is reachable from %v", tc.name, err)
		}
	}
}
