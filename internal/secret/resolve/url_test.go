package resolve

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/secret"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

func TestURLNotThereYetThenOK(t *testing.T) {
	g := newRig(t)
	g.write(t, "/etc/corium/token", "\n bearer-abc \n")
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 404}, tlsserver.Answer{Status: 503}, tlsserver.Answer{Status: 200, Body: "join-token-value\n"})
	v, err := g.resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "join.tokenFrom",
		secret.Source{URL: srv.URL + "/token?sig=abc", AuthFile: "/etc/corium/token", WaitFor: "1m"})
	if err != nil || v.Reveal() != "join-token-value" {
		t.Fatalf("Resolve = %v", err)
	}
	if srv.Count() != 3 {
		t.Fatalf("%d requests, want 3", srv.Count())
	}
	for i, r := range srv.Requests() {
		if a := r.Header.Get("Authorization"); a != "Bearer bearer-abc" {
			t.Fatalf("request %d sent Authorization %q", i, a)
		}
	}
	prefix := "join.tokenFrom: waiting for " + srv.URL + "/token (attempt "
	if st := g.status(); len(st) != 2 || !strings.HasPrefix(st[0], prefix+"1, next in ") || !strings.HasPrefix(st[1], prefix+"2, next in ") {
		t.Fatalf("progress lines %q", st)
	}
}

func TestURLUnauthorizedFailsAfterOneRequest(t *testing.T) {
	g := newRig(t)
	g.write(t, "/etc/corium/token", "wrong")
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 401}, tlsserver.Answer{Status: 200, Body: "never"})
	_, err := g.resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "join.tokenFrom",
		secret.Source{URL: srv.URL + "/t", AuthFile: "/etc/corium/token", WaitFor: "1h"})
	var se *fetch.StatusError
	if !errors.As(err, &se) || se.Code != 401 {
		t.Fatalf("err = %v", err)
	}
	if want := "join.tokenFrom: fetching " + srv.URL + "/t: server answered 401 Unauthorized"; !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("err = %q, want prefix %q", err, want)
	}
	if !strings.HasSuffix(err.Error(), "(the bearer token is read from authFile /etc/corium/token)") {
		t.Fatalf("err = %q does not say where the token came from", err)
	}
	if srv.Count() != 1 {
		t.Fatalf("%d requests, want exactly 1", srv.Count())
	}
}

func TestURLRedirectToHTTPRefused(t *testing.T) {
	plain := tlsserver.NewScriptedHTTPServer(t, tlsserver.Answer{Status: 200, Body: "x"})
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: http.StatusFound, Location: plain.URL + "/key"})
	_, err := newRig(t).resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "wireguard[0].privateKeyFrom",
		secret.Source{URL: srv.URL, WaitFor: "1h"})
	if !errors.Is(err, fetch.ErrInsecureRedirect) || plain.Count() != 0 || srv.Count() != 1 {
		t.Fatalf("err = %v, http hits %d, https requests %d", err, plain.Count(), srv.Count())
	}
}

func TestURLRetryAfterHonoured(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 429, RetryAfter: "1"}, tlsserver.Answer{Status: 200, Body: "k"})
	_, err := newRig(t).resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "ha.authPassFrom", secret.Source{URL: srv.URL, WaitFor: "30s"})
	if err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()
	if gap := r[1].Time.Sub(r[0].Time); gap < time.Second {
		t.Fatalf("retried after %s; the server asked for 1s and the backoff is 10ms", gap)
	}
}

func TestURLBodyCap(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: strings.Repeat("a", MaxURLBytes+1)})
	_, err := newRig(t).resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "join.tokenFrom", secret.Source{URL: srv.URL, WaitFor: "1m"})
	if !errors.Is(err, fetch.ErrTooLarge) || srv.Count() != 1 {
		t.Fatalf("err = %v after %d requests", err, srv.Count())
	}
}

func TestURLAuthFileAppearsLater(t *testing.T) {
	g := newRig(t)
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "k"})
	go func() {
		time.Sleep(200 * time.Millisecond)
		g.write(t, "/run/auth", "tok")
	}()
	_, err := g.resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "join.tokenFrom", secret.Source{URL: srv.URL, AuthFile: "/run/auth", WaitFor: "10s"})
	if err != nil || srv.Count() != 1 || srv.Requests()[0].Header.Get("Authorization") != "Bearer tok" {
		t.Fatalf("err = %v, requests %d", err, srv.Count())
	}
}

func TestURLEmptyBodyIsNotThereYet(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 200, Body: "\n"}, tlsserver.Answer{Status: 200, Body: "k"})
	v, err := newRig(t).resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "join.tokenFrom", secret.Source{URL: srv.URL, WaitFor: "10s"})
	if err != nil || v.Reveal() != "k" || srv.Count() != 2 {
		t.Fatalf("err = %v, requests %d", err, srv.Count())
	}
}

func TestURLNeverAvailable(t *testing.T) {
	srv := tlsserver.NewScriptedServer(t, tlsserver.Answer{Status: 503})
	_, err := newRig(t).resolver(WithFetch(trusting(srv.Server))).Resolve(context.Background(), "join.tokenFrom", secret.Source{URL: srv.URL + "/t?x=1", WaitFor: "200ms"})
	want := "join.tokenFrom: " + srv.URL + "/t was not available within 200ms ("
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), "last: server answered 503 Service Unavailable)") {
		t.Fatalf("err = %v", err)
	}
}
