package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/secret"
)

// DefaultMaxBytes caps a body when the request sets no cap.
const DefaultMaxBytes = 1 << 20

// Request is one document or secret to fetch.
type Request struct {
	URL string
	// Header is sent as is and never shown anywhere.
	Header http.Header
	// MaxBytes caps the body (DefaultMaxBytes when 0); a longer body fails.
	MaxBytes int64
	// Wait is how long "not there yet" is retried; 0 means one attempt.
	Wait time.Duration
	// AllowHTTP permits plain http, for a document pinned by a digest.
	AllowHTTP bool
	// Report, when set, is told about every failed attempt.
	Report func(Attempt)
}

// Attempt is one failed try, for progress lines.
type Attempt struct {
	retry.Attempt
	// URL is the request's URL, redacted.
	URL string
}

// Get fetches req.URL, retrying "not there yet" until req.Wait runs out. An
// error names the redacted URL.
func (c *Client) Get(ctx context.Context, req Request) ([]byte, error) {
	shown := secret.ShownURL(req.URL)
	policy := c.backoff
	policy.Wait = req.Wait
	if req.Report != nil {
		policy.Report = func(a retry.Attempt) { req.Report(Attempt{Attempt: a, URL: shown}) }
	}
	var body []byte
	err := retry.Do(ctx, policy, func(ctx context.Context) error {
		var err error
		body, err = c.Once(ctx, req)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", shown, err)
	}
	return body, nil
}

// Once makes one attempt; a "not there yet" error is marked for package
// retry (retry.IsNotYet). Its errors do not name the URL: the caller does.
func (c *Client) Once(ctx context.Context, req Request) ([]byte, error) {
	u, err := url.Parse(req.URL)
	if err != nil || u.Host == "" {
		return nil, errors.New("not an absolute URL")
	}
	if u.Scheme != "https" && !(req.AllowHTTP && u.Scheme == "http") {
		return nil, fmt.Errorf("scheme %q refused: only https:// is allowed", u.Scheme)
	}
	ctx, cancel := context.WithTimeout(withAllowHTTP(ctx, req.AllowHTTP), attemptTimeout)
	defer cancel()
	// The URL goes out exactly as written: a presigned signature covers its
	// encoding.
	hreq, err := http.NewRequestWithContext(ctx, http.MethodGet, req.URL, nil)
	if err != nil {
		return nil, errors.New("building the request failed")
	}
	for k, vs := range req.Header {
		hreq.Header[k] = append([]string(nil), vs...)
	}
	hreq.Header.Set("User-Agent", "corium-agent")
	resp, err := c.hc.Do(hreq)
	if err != nil {
		return nil, classify(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode < 300 {
		return readCapped(resp.Body, req.MaxBytes)
	}
	// Read a little of the body so the connection can be reused; it is
	// never shown, as an error page may echo the request.
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4096))
	statusErr := &StatusError{Code: resp.StatusCode}
	if notThereYet(resp.StatusCode) {
		return nil, retry.NotYetAfter(statusErr, retryAfter(resp.Header.Get("Retry-After"), time.Now()))
	}
	return nil, statusErr
}

// notThereYet lists the statuses of a server that may answer later: the
// object is not published yet, or the server is busy or restarting.
func notThereYet(code int) bool {
	switch code {
	case http.StatusNotFound, http.StatusRequestTimeout, http.StatusTooEarly,
		http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable,
		http.StatusGatewayTimeout:
		return true
	}
	return false
}

// StatusError is an HTTP answer other than 2xx.
type StatusError struct {
	Code int
}

func (e *StatusError) Error() string {
	msg := fmt.Sprintf("server answered %d %s", e.Code, http.StatusText(e.Code))
	switch e.Code {
	case http.StatusUnauthorized, http.StatusForbidden:
		msg += "; check the credentials sent with the request"
	}
	return msg
}

// ErrTooLarge is returned for a body over the request's cap.
var ErrTooLarge = errors.New("body too large")

func readCapped(r io.Reader, limit int64) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		// Retried whatever broke it, as a connection that failed.
		c, _ := class(err)
		return nil, retry.NotYet(fmt.Errorf("reading the body: %w", c))
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes; the limit is %d", ErrTooLarge, limit, limit)
	}
	return b, nil
}
