package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"

	"github.com/corium/corium-agent/internal/retry"
)

// classify sorts a transport error into "not there yet" (the network or the
// server is not up yet) and fatal (nothing will change by asking again).
func classify(err error) error {
	err = stripURL(err)
	if errors.Is(err, context.Canceled) {
		return err
	}
	var (
		verifyErr   *tls.CertificateVerificationError
		unknownCA   x509.UnknownAuthorityError
		hostnameErr x509.HostnameError
		invalidErr  x509.CertificateInvalidError
		recordErr   tls.RecordHeaderError
		alertErr    tls.AlertError
		dnsErr      *net.DNSError
		opErr       *net.OpError
		netErr      net.Error
	)
	switch {
	case errors.Is(err, ErrInsecureRedirect):
		return err
	case errors.As(err, &verifyErr), errors.As(err, &unknownCA), errors.As(err, &hostnameErr), errors.As(err, &invalidErr):
		return fmt.Errorf("verifying the server's certificate: %w; the system trust store (SSL_CERT_FILE, SSL_CERT_DIR) must hold its CA", err)
	case errors.As(err, &recordErr):
		return fmt.Errorf("the server does not speak TLS: %w", err)
	case errors.As(err, &alertErr):
		return fmt.Errorf("the server refused the TLS handshake: %w", err)
	case errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &dnsErr), errors.As(err, &opErr),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.As(err, &netErr) && netErr.Timeout():
		return retry.NotYet(err)
	}
	return err
}

// stripURL drops net/url's wrapper, whose message quotes the full URL with
// its query string.
func stripURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryAfter reads a Retry-After header: delay-seconds or an HTTP date.
// Anything unreadable or in the past means no server-given delay.
func retryAfter(v string, now time.Time) time.Duration {
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseInt(v, 10, 64); err == nil {
		// Clamped before multiplying, so a huge value cannot overflow.
		return time.Duration(max(0, min(s, int64(24*time.Hour/time.Second)))) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(0, t.Sub(now))
	}
	return 0
}
