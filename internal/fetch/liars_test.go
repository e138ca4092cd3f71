package fetch

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// Every lying server's canary, and the bearer token some of them echo,
// stay out of the error, the progress reports and every error the chain
// of wraps reaches. The proxy liar needs the environment of a process of
// its own (Go reads the proxy variables once), and the slow one takes the
// header timeout: test/hostile runs both against the built agent.
func TestLiarsAreNotQuoted(t *testing.T) {
	liars, caPEM := tlsserver.Liars(t)
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		t.Fatal("the liars' CA does not parse")
	}
	const bearer = "BEARERECHOED0123456789"
	for _, l := range liars {
		if l.Env != nil || l.Slow {
			continue
		}
		t.Run(l.Name, func(t *testing.T) {
			t.Parallel()
			c := New(WithRootCAs(pool), WithBackoff(retry.Policy{Base: 20 * time.Millisecond, Cap: 50 * time.Millisecond}))
			var reports []string
			body, err := c.Get(context.Background(), Request{URL: l.URL, Wait: 300 * time.Millisecond, MaxBytes: 64 << 10,
				Header: http.Header{"Authorization": {"Bearer " + bearer}},
				Report: func(a Attempt) { reports = append(reports, a.Err.Error()) }})
			if l.Name == "wrong-content-type" {
				// The body is what was asked for; what it holds is the
				// caller's to judge, and to quote or not.
				if err != nil || !strings.Contains(string(body), l.Canary) {
					t.Fatalf("Get = %q, %v; want the body", body, err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Get = %q; want an error", body)
			}
			texts := append(reports, fmt.Sprintf("%+v", err))
			for e := range chain(err) {
				texts = append(texts, e.Error())
			}
			all := strings.Join(texts, "\n")
			for _, s := range []string{l.Canary, bearer} {
				if strings.Contains(all, s) {
					t.Errorf("%s shows:\n%s", s, all)
				}
			}
			if transient, _ := retry.IsNotYet(errors.Unwrap(err)); l.Transient != (len(reports) > 1) {
				t.Errorf("retried %d times (transient %v), want transient %v: %v", len(reports), transient, l.Transient, err)
			}
		})
	}
}

// chain is every error err wraps, err included, through Unwrap() error and
// Unwrap() []error alike.
func chain(err error) func(func(error) bool) {
	return func(yield func(error) bool) {
		var walk func(error) bool
		walk = func(e error) bool {
			if e == nil {
				return true
			}
			if !yield(e) {
				return false
			}
			switch u := e.(type) {
			case interface{ Unwrap() error }:
				return walk(u.Unwrap())
			case interface{ Unwrap() []error }:
				for _, c := range u.Unwrap() {
					if !walk(c) {
						return false
					}
				}
			}
			return true
		}
		walk(err)
	}
}
