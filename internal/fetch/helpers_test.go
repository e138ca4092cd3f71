package fetch

import (
	"net/http/httptest"
	"time"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// fastClient trusts srv's certificate and retries in milliseconds.
func fastClient(srv *httptest.Server) *Client {
	return New(WithRootCAs(tlsserver.CertPool(srv)), WithBackoff(retry.Policy{Base: 10 * time.Millisecond, Cap: 50 * time.Millisecond}))
}
