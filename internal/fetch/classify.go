package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"syscall"
	"time"

	"github.com/corium/corium-agent/internal/retry"
)

// The classes of a failed fetch, in fixed words. What a transport, proxy,
// TLS or HTTP error says quotes the other side: a malformed status line or
// header, a proxy's reason phrase, HTTP/2 GOAWAY's debug data, the names of
// a certificate, a redirect's target. A server or proxy that echoes the
// request's bearer token would have it printed and written into the status
// record; so an error of this package is one of these classes (or a
// StatusError, a number), and wraps nothing the other side sent: not even
// errors.Unwrap or errors.As reaches it.
var (
	ErrUntrustedCA = errors.New("the server's certificate is not signed by a CA of the system trust store (SSL_CERT_FILE, SSL_CERT_DIR); add its CA there")
	ErrCertName    = errors.New("the server's certificate is not valid for the URL's host name")
	ErrCertExpired = errors.New("the server's certificate has expired or is not valid yet; check the node's clock")
	ErrCertInvalid = errors.New("the server's certificate is not valid")
	ErrNotTLS      = errors.New("the server does not speak TLS")
	ErrTLSRefused  = errors.New("the server refused the TLS handshake")
	ErrProxy       = errors.New("the proxy (HTTPS_PROXY) did not open a connection to the server")
	ErrNoName      = errors.New("the server's name does not resolve")
	ErrRefused     = errors.New("the server refused the connection")
	ErrReset       = errors.New("the connection was reset")
	ErrUnreachable = errors.New("the server cannot be reached")
	ErrTimeout     = errors.New("the attempt timed out")
	ErrCutShort    = errors.New("the server closed the connection before its answer was complete")
	ErrBadAnswer   = errors.New("the server's answer is not valid HTTP")
	// ErrInsecureRedirect is a redirect that leaves https. Its target is
	// the server's text, and is not shown.
	ErrInsecureRedirect = errors.New("a redirect leaves https, and only https is followed")
	// ErrTooManyRedirects is a chain of redirects longer than maxRedirects.
	ErrTooManyRedirects = errors.New("stopped after " + strconv.Itoa(maxRedirects) + " redirects")
)

// classify turns a transport error into its class, marked "not there yet"
// (the network or the server is not up yet) or not (nothing will change by
// asking again).
func classify(err error) error {
	c, notYet := class(err)
	if notYet {
		return retry.NotYet(c)
	}
	return c
}

func class(err error) (c error, notYet bool) {
	var (
		unknownCA   x509.UnknownAuthorityError
		hostnameErr x509.HostnameError
		invalidErr  x509.CertificateInvalidError
		verifyErr   *tls.CertificateVerificationError
		recordErr   tls.RecordHeaderError
		alertErr    tls.AlertError
		dnsErr      *net.DNSError
		opErr       *net.OpError
		netErr      net.Error
	)
	switch {
	case errors.Is(err, context.Canceled):
		return context.Canceled, false
	case errors.Is(err, ErrInsecureRedirect):
		return ErrInsecureRedirect, false
	case errors.Is(err, ErrTooManyRedirects):
		return ErrTooManyRedirects, false
	case errors.As(err, &unknownCA):
		return ErrUntrustedCA, false
	case errors.As(err, &hostnameErr):
		return ErrCertName, false
	case errors.As(err, &invalidErr) && invalidErr.Reason == x509.Expired:
		return ErrCertExpired, false
	case errors.As(err, &invalidErr), errors.As(err, &verifyErr):
		return ErrCertInvalid, false
	case errors.As(err, &recordErr):
		return ErrNotTLS, false
	case errors.As(err, &alertErr), errors.As(err, &opErr) && opErr.Op == "remote error":
		// crypto/tls reports an alert the peer sent as a "remote error".
		return ErrTLSRefused, false
	case errors.As(err, &opErr) && opErr.Op == "proxyconnect":
		// Not up yet, or refusing by its reason phrase (not shown).
		return ErrProxy, isNetworkDown(opErr.Err)
	case errors.As(err, &dnsErr):
		return ErrNoName, true
	case errors.Is(err, syscall.ECONNREFUSED):
		return ErrRefused, true
	case errors.Is(err, syscall.ECONNRESET):
		return ErrReset, true
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return ErrTimeout, true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return ErrCutShort, true
	case errors.As(err, &opErr):
		return ErrUnreachable, true
	}
	// A malformed status line or header, HTTP/2's GOAWAY or stream errors,
	// a bad gzip stream: the answer, not the network.
	return ErrBadAnswer, false
}

// isNetworkDown says whether err is the network not being there yet, not
// an answer.
func isNetworkDown(err error) bool {
	var netErr net.Error
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.As(err, &netErr) && netErr.Timeout()
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
