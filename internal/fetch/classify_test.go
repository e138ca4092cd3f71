package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/corium/corium-agent/internal/retry"
)

// The transport errors that are hard to provoke on loopback (a name that
// does not resolve yet, a reset, a timeout), sorted as the contract says.
func TestClassify(t *testing.T) {
	wrap := func(err error) error { return &url.Error{Op: "Get", URL: "https://h/p?token=QUERYSECRET", Err: err} }
	for _, tc := range []struct {
		name      string
		err       error
		transient bool
	}{
		{"name not resolving yet", &net.DNSError{Err: "no such host", Name: "vault.example", IsNotFound: true}, true},
		{"resolver not reachable yet", &net.DNSError{Err: "server misbehaving", Name: "vault.example", IsTemporary: true}, true},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, true},
		{"reset", &net.OpError{Op: "read", Net: "tcp", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, true},
		{"unreachable", &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ENETUNREACH)}, true},
		{"closed mid-answer", io.ErrUnexpectedEOF, true},
		{"closed before answering", io.EOF, true},
		{"attempt timed out", context.DeadlineExceeded, true},
		{"unknown CA", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}, false},
		{"wrong name", x509.HostnameError{Certificate: &x509.Certificate{}, Host: "h"}, false},
		{"expired", x509.CertificateInvalidError{Reason: x509.Expired}, false},
		{"not TLS", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, false},
		{"handshake refused", tls.AlertError(42), false},
		{"redirect to http", fmt.Errorf("%w: to http://h/", ErrInsecureRedirect), false},
		{"shutdown", context.Canceled, false},
		{"anything else", errors.New("unsupported protocol scheme"), false},
	} {
		err := classify(wrap(tc.err))
		if transient, _ := retry.IsNotYet(err); transient != tc.transient {
			t.Errorf("%s: transient = %v, want %v (%v)", tc.name, transient, tc.transient, err)
		}
		if !errors.Is(err, tc.err) && !errors.As(err, new(*tls.CertificateVerificationError)) {
			t.Errorf("%s: the cause is not wrapped: %v", tc.name, err)
		}
		if s := err.Error(); s == "" || strings.Contains(s, "QUERYSECRET") {
			t.Errorf("%s: message %q", tc.name, s)
		}
	}
}
