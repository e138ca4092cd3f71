package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

func TestGetReturnsBodyAndSendsHeader(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "hello"})
	body, err := fastClient(srv.Server).Get(context.Background(), Request{
		URL:    srv.URL + "/doc",
		Header: http.Header{"Authorization": {"Bearer abc"}},
	})
	if err != nil || string(body) != "hello" {
		t.Fatalf("Get = %q, %v", body, err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer abc" {
		t.Fatalf("Authorization = %q", got)
	}
}

func TestNotThereYetThenOK(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 404}, tlsserver.Answer{Status: 503}, tlsserver.Answer{Status: 200, Body: "ok"})
	var reports []Attempt
	body, err := fastClient(srv.Server).Get(context.Background(), Request{
		URL: srv.URL + "/k", Wait: time.Minute,
		Report: func(a Attempt) { reports = append(reports, a) },
	})
	if err != nil || string(body) != "ok" {
		t.Fatalf("Get = %q, %v", body, err)
	}
	if srv.Count() != 3 || len(reports) != 2 {
		t.Fatalf("requests %d, reports %d; want 3 and 2", srv.Count(), len(reports))
	}
	if !strings.Contains(reports[0].Err.Error(), "404") || !strings.Contains(reports[1].Err.Error(), "503") || !reports[1].Retrying {
		t.Fatalf("reports = %+v", reports)
	}
}

func TestEveryTransientStatusIsRetried(t *testing.T) {
	for _, code := range []int{404, 408, 425, 429, 502, 503, 504} {
		srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: code}, tlsserver.Answer{Status: 200, Body: "ok"})
		if _, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, Wait: time.Minute}); err != nil {
			t.Errorf("%d then 200: %v", code, err)
		}
		if srv.Count() != 2 {
			t.Errorf("%d then 200: %d requests, want 2", code, srv.Count())
		}
	}
}

func TestFatalStatusFailsAfterOneRequest(t *testing.T) {
	for _, code := range []int{400, 401, 403, 410, 418, 500, 501} {
		srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: code}, tlsserver.Answer{Status: 200})
		_, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, Wait: time.Minute})
		var se *StatusError
		if !errors.As(err, &se) || se.Code != code {
			t.Errorf("%d: err = %v, want a StatusError", code, err)
		}
		if n := srv.Count(); n != 1 {
			t.Errorf("%d: %d requests, want exactly 1", code, n)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprint(code)) {
			t.Errorf("%d: message %q does not name the status", code, err)
		}
	}
}

func TestRedirectToHTTPRefused(t *testing.T) {
	plain := tlsserver.NewScriptedHTTPServer(t, tlsserver.Answer{Status: 200, Body: "downgraded"})
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: http.StatusFound, Location: plain.URL + "/k?sig=QUERYSECRET"})
	_, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, Wait: time.Minute})
	if !errors.Is(err, ErrInsecureRedirect) {
		t.Fatalf("err = %v, want ErrInsecureRedirect", err)
	}
	if srv.Count() != 1 || plain.Count() != 0 {
		t.Fatalf("https requests %d, http requests %d; want 1 and 0", srv.Count(), plain.Count())
	}
	if strings.Contains(err.Error(), "QUERYSECRET") {
		t.Fatalf("error shows the redirect's query: %v", err)
	}

	// With AllowHTTP (a digest-pinned document) the same hop is followed.
	body, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, AllowHTTP: true})
	if err != nil || string(body) != "downgraded" {
		t.Fatalf("AllowHTTP: %q, %v", body, err)
	}
}

func TestRedirectWithinHTTPSFollowed(t *testing.T) {
	target := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "moved"})
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: http.StatusMovedPermanently, Location: target.URL + "/new"})
	c := New(WithRootCAs(tlsserver.CertPool(srv.Server, target.Server)))
	body, err := c.Get(context.Background(), Request{URL: srv.URL})
	if err != nil || string(body) != "moved" {
		t.Fatalf("Get = %q, %v", body, err)
	}
}

func TestPlainHTTPRefusedWithoutAllow(t *testing.T) {
	plain := tlsserver.NewScriptedHTTPServer(t, tlsserver.Answer{Status: 200})
	_, err := New().Get(context.Background(), Request{URL: plain.URL, Wait: time.Minute})
	if err == nil || !strings.Contains(err.Error(), "only https://") || plain.Count() != 0 {
		t.Fatalf("err = %v, hits = %d", err, plain.Count())
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 503, RetryAfter: "1"}, tlsserver.Answer{Status: 200, Body: "ok"})
	if _, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, Wait: time.Minute}); err != nil {
		t.Fatal(err)
	}
	// The client's own backoff is 10ms; only the header explains a 1s gap.
	r := srv.Requests()
	if gap := r[1].Time.Sub(r[0].Time); gap < time.Second {
		t.Fatalf("second request %s after the first, want at least the 1s asked for", gap)
	}
}

func TestRetryAfterDate(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 429, RetryAfter: time.Now().Add(2 * time.Second).UTC().Format(http.TimeFormat)}, tlsserver.Answer{Status: 200})
	if _, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, Wait: time.Minute}); err != nil {
		t.Fatal(err)
	}
	// An HTTP date has one-second resolution: 2s ahead is at least 1s ahead.
	r := srv.Requests()
	if gap := r[1].Time.Sub(r[0].Time); gap < time.Second {
		t.Fatalf("second request %s after the first, want at least 1s", gap)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"":                              0,
		"0":                             0,
		"-5":                            0,
		"120":                           2 * time.Minute,
		"99999999999999999":             24 * time.Hour,
		"soon":                          0,
		"Sun, 01 Mar 2026 12:00:30 GMT": 30 * time.Second,
		"Sun, 01 Mar 2026 11:00:00 GMT": 0,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("retryAfter(%q) = %s, want %s", v, got, want)
		}
	}
}

func TestUntrustedCertificateFailsAtOnce(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200})
	attempts := 0
	// The system store does not hold httptest's CA.
	_, err := New().Get(context.Background(), Request{URL: srv.URL, Wait: time.Minute, Report: func(Attempt) { attempts++ }})
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("err = %v, want a certificate error", err)
	}
	if attempts != 1 || srv.Count() != 0 {
		t.Fatalf("attempts %d, requests %d; want 1 and 0", attempts, srv.Count())
	}
}

func TestConnectionRefusedUntilServerStarts(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("up")) }))
	defer srv.Close()
	var refused int
	reported := make(chan struct{}, 100)
	go func() {
		<-reported
		<-reported
		l, err := net.Listen("tcp", addr)
		if err != nil {
			t.Error(err)
			return
		}
		srv.Listener = l
		srv.StartTLS()
	}()
	// The certificate is only known once started, so trust is checked after
	// the refusals; build the pool from httptest's fixed test certificate.
	probe := tlsserver.New(t, http.NotFoundHandler())
	c := New(WithRootCAs(tlsserver.CertPool(probe)), WithBackoff(retry.Policy{Base: 20 * time.Millisecond, Cap: 100 * time.Millisecond}))
	body, err := c.Get(context.Background(), Request{URL: "https://" + addr + "/", Wait: time.Minute, Report: func(a Attempt) {
		if strings.Contains(a.Err.Error(), "refused") {
			refused++
		}
		reported <- struct{}{}
	}})
	if err != nil || string(body) != "up" {
		t.Fatalf("Get = %q, %v", body, err)
	}
	if refused < 2 {
		t.Fatalf("%d refused attempts reported, want at least 2", refused)
	}
}

func TestBodyCap(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: strings.Repeat("x", 100)})
	_, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, MaxBytes: 50, Wait: time.Minute})
	if !errors.Is(err, ErrTooLarge) || srv.Count() != 1 || !strings.Contains(err.Error(), "limit is 50") {
		t.Fatalf("err = %v, requests %d", err, srv.Count())
	}
	body, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, MaxBytes: 100})
	if err != nil || len(body) != 100 {
		t.Fatalf("exactly at the cap: %d bytes, %v", len(body), err)
	}
}

func TestURLRedactedInErrorsAndReports(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 503})
	u := strings.Replace(srv.URL, "https://", "https://user:PASSWORDSECRET@", 1) + "/obj?X-Amz-Signature=QUERYSECRET#FRAGSECRET"
	var lines []string
	_, err := fastClient(srv.Server).Get(context.Background(), Request{URL: u, Wait: 100 * time.Millisecond,
		Header: http.Header{"Authorization": {"Bearer HEADERSECRET"}},
		Report: func(a Attempt) { lines = append(lines, a.URL+" "+a.Err.Error()) }})
	if err == nil {
		t.Fatal("want an error")
	}
	all := strings.Join(append(lines, err.Error(), fmt.Sprintf("%+v", err)), "\n")
	for _, s := range []string{"PASSWORDSECRET", "QUERYSECRET", "FRAGSECRET", "HEADERSECRET"} {
		if strings.Contains(all, s) {
			t.Errorf("%s leaked in:\n%s", s, all)
		}
	}
	if !strings.Contains(err.Error(), srv.URL+"/obj") {
		t.Errorf("error %q does not name the URL", err)
	}
}

func TestDeadlineRespected(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 503})
	const wait = 500 * time.Millisecond
	step := 50 * time.Millisecond
	start := time.Now()
	_, err := fastClient(srv.Server).Get(context.Background(), Request{URL: srv.URL, Wait: wait})
	elapsed := time.Since(start)
	var gaveUp *retry.GaveUpError
	if !errors.As(err, &gaveUp) {
		t.Fatalf("err = %v, want GaveUpError", err)
	}
	// The last sleep is cut at the deadline; one request may follow it.
	if elapsed < wait || elapsed > wait+step+time.Second {
		t.Fatalf("gave up after %s, want between %s and one step (plus a request) later", elapsed, wait)
	}
}

func TestCancelStopsAtOnce(t *testing.T) {
	t.Run("between attempts", func(t *testing.T) {
		srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 503})
		ctx, cancel := context.WithCancel(context.Background())
		c := New(WithRootCAs(tlsserver.CertPool(srv.Server)), WithBackoff(retry.Policy{Base: time.Hour, Cap: time.Hour}))
		done := make(chan error, 1)
		go func() {
			_, err := c.Get(ctx, Request{URL: srv.URL, Wait: 2 * time.Hour, Report: func(Attempt) { cancel() }})
			done <- err
		}()
		expectCancelled(t, done)
	})
	t.Run("during a request", func(t *testing.T) {
		arrived := make(chan struct{})
		srv := tlsserver.New(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
			close(arrived)
			<-r.Context().Done()
		}))
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := New(WithRootCAs(tlsserver.CertPool(srv))).Get(ctx, Request{URL: srv.URL, Wait: time.Hour})
			done <- err
		}()
		<-arrived
		cancel()
		expectCancelled(t, done)
	})
}

func expectCancelled(t *testing.T, done chan error) {
	t.Helper()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Get still running 5s after cancellation")
	}
}

func TestShownURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://h/p":                    "https://h/p",
		"https://u:p@h:8443/p?q=1#f":     "https://h:8443/p",
		"https://h/p?":                   "https://h/p",
		"http://[::1]/a/b?token=x":       "http://[::1]/a/b",
		"https://h/p%zz?token=SECRETISH": "(an unparsable URL)",
		"https://h/a%20b?sig=1":          "https://h/a%20b",
	} {
		if got := secret.ShownURL(in); got != want {
			t.Errorf("secret.ShownURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// The bearer token belongs to the URL's origin. Go's client drops it only on
// a hop to another host name, so another port of the same host, which is
// another server, must be stripped here.
func TestAuthorizationStaysWithItsOrigin(t *testing.T) {
	other := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "other port"})
	srv := tlsserver.NewScriptedServer(t,
		tlsserver.Answer{Status: http.StatusFound, Location: "/same-origin"},
		tlsserver.Answer{Status: http.StatusFound, Location: other.URL + "/elsewhere"},
	)
	if strings.Split(srv.Listener.Addr().String(), ":")[0] != strings.Split(other.Listener.Addr().String(), ":")[0] {
		t.Fatal("both servers must listen on the same host for this test")
	}
	c := New(WithRootCAs(tlsserver.CertPool(srv.Server, other.Server)))
	body, err := c.Get(context.Background(), Request{URL: srv.URL + "/start", Header: http.Header{"Authorization": {"Bearer TOKEN-FOR-SRV"}}})
	if err != nil || string(body) != "other port" {
		t.Fatalf("Get = %q, %v", body, err)
	}
	for i, r := range srv.Requests() {
		if got := r.Header.Get("Authorization"); got != "Bearer TOKEN-FOR-SRV" {
			t.Errorf("request %d to the URL's own origin (%s) carried Authorization %q", i, r.Path, got)
		}
	}
	if other.Count() != 1 {
		t.Fatalf("other port got %d requests, want 1", other.Count())
	}
	if got := other.Requests()[0].Header.Get("Authorization"); got != "" {
		t.Fatalf("the bearer token followed the redirect to another port: %q", got)
	}
}

func TestOrigin(t *testing.T) {
	same := [][2]string{
		{"https://h.example/a", "https://h.example:443/b"},
		{"https://H.Example/a", "https://h.example/b?x=1"},
		{"https://[2001:db8::1]/a", "https://[2001:db8::1]:443/"},
	}
	for _, p := range same {
		a, _ := url.Parse(p[0])
		b, _ := url.Parse(p[1])
		if origin(a) != origin(b) {
			t.Errorf("%s and %s: different origins %s, %s", p[0], p[1], origin(a), origin(b))
		}
	}
	differ := [][2]string{
		{"https://h.example/a", "https://h.example:8443/a"},
		{"https://h.example/a", "http://h.example/a"},
		{"https://h.example/a", "https://g.example/a"},
	}
	for _, p := range differ {
		a, _ := url.Parse(p[0])
		b, _ := url.Parse(p[1])
		if origin(a) == origin(b) {
			t.Errorf("%s and %s: one origin %s", p[0], p[1], origin(a))
		}
	}
}
