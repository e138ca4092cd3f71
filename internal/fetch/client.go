package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/corium/corium-agent/internal/retry"
)

// Timeouts of one attempt. They bound a server that accepts and then says
// nothing, which the retry loop would otherwise wait on past the deadline.
const (
	dialTimeout    = 10 * time.Second
	tlsTimeout     = 10 * time.Second
	headerTimeout  = 30 * time.Second
	attemptTimeout = 2 * time.Minute
	maxRedirects   = 10
)

// Client fetches over HTTPS. It is safe for concurrent use.
type Client struct {
	hc      *http.Client
	backoff retry.Policy
}

// Option configures a Client.
type Option func(*Client)

// WithRootCAs trusts pool instead of the system store.
func WithRootCAs(pool *x509.CertPool) Option {
	return func(c *Client) {
		c.hc.Transport.(*http.Transport).TLSClientConfig.RootCAs = pool
	}
}

// WithBackoff sets the retry loop's base step, cap, clock and jitter (zero
// values keep retry's defaults); tests use it to run fast or deterministic.
func WithBackoff(p retry.Policy) Option {
	return func(c *Client) {
		c.backoff = retry.Policy{Base: p.Base, Cap: p.Cap, Clock: p.Clock, Jitter: p.Jitter}
	}
}

// New returns a client trusting the system store (see the package doc).
func New(opts ...Option) *Client {
	transport := &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   tlsTimeout,
		ResponseHeaderTimeout: headerTimeout,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          10,
		IdleConnTimeout:       90 * time.Second,
	}
	c := &Client{hc: &http.Client{Transport: transport, CheckRedirect: checkRedirect}}
	for _, o := range opts {
		o(c)
	}
	return c
}

type allowHTTPKey struct{}

// checkRedirect refuses a hop to plain http: a document or secret fetched
// over https must not be downgraded halfway. It also keeps the bearer token
// with the origin it was written for: Go drops Authorization only on a hop
// to another host name, and still sends it to another port or scheme of the
// same host, which is another server.
func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return ErrTooManyRedirects
	}
	allowHTTP, _ := req.Context().Value(allowHTTPKey{}).(bool)
	if req.URL.Scheme != "https" && !(allowHTTP && req.URL.Scheme == "http") {
		return ErrInsecureRedirect // the target is the server's text
	}
	if origin(req.URL) != origin(via[0].URL) {
		req.Header.Del("Authorization")
	}
	return nil
}

// origin is a URL's scheme, host and port, the port spelled out when the
// URL leaves it to the scheme, so https://h and https://h:443 are one origin.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

func withAllowHTTP(ctx context.Context, allow bool) context.Context {
	return context.WithValue(ctx, allowHTTPKey{}, allow)
}
