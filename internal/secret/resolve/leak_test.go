package resolve

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/secret"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// The secret values of the leak test. Each flows through the resolver in at
// least one scenario below.
const (
	leakFile     = "FILE-SECRET-1a2b"
	leakURL      = "URL-SECRET-3c4d"
	leakAuth     = "AUTH-SECRET-5e6f"
	leakQuery    = "QUERY-SECRET-7a8b"
	leakUserinfo = "USERINFO-SECRET-9c0d"
	leakCred     = "CRED-SECRET-e1f2"
	leakFragment = "FRAGMENT-SECRET-3a4b"
)

// TestNoSecretInAnyOutput runs every scenario of the package (success, waits,
// final failures, cancellation) and searches everything it produced — text
// and JSON logs, sd_notify datagrams, errors in every format — for the
// secret values.
func TestNoSecretInAnyOutput(t *testing.T) {
	sock := listenNotify(t)
	var logs syncBuffer
	logger := slog.New(multi{
		slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}),
		slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}),
	})
	var outs []string
	record := func(v secret.Value, err error) {
		outs = append(outs, fmt.Sprintf("%v|%+v|%#v|%s|%q", v, v, v, v, v))
		if err != nil {
			outs = append(outs, err.Error(), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err))
		}
	}

	// A server that echoes the request's Authorization header and URL in
	// its error pages, as some do.
	var mu sync.Mutex
	served := map[string]int{}
	srv := tlsserver.New(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		served[r.URL.Path]++
		n := served[r.URL.Path]
		mu.Unlock()
		echo := "you sent " + r.Header.Get("Authorization") + " for " + r.URL.String()
		switch {
		case r.URL.Path == "/ok" && n == 1:
			http.Error(w, echo, http.StatusNotFound)
		case r.URL.Path == "/ok":
			_, _ = w.Write([]byte(leakURL + "\n"))
		case r.URL.Path == "/denied":
			http.Error(w, echo, http.StatusUnauthorized)
		case r.URL.Path == "/busy":
			http.Error(w, echo, http.StatusServiceUnavailable)
		case r.URL.Path == "/later":
			w.Header().Set("Retry-After", "3600")
			http.Error(w, echo, http.StatusTooManyRequests)
		case r.URL.Path == "/big":
			_, _ = w.Write([]byte(strings.Repeat(leakURL, MaxURLBytes/len(leakURL)+1)))
		case r.URL.Path == "/away":
			http.Redirect(w, r, "http://127.0.0.1:1/x?sig="+leakQuery, http.StatusFound)
		}
	}))
	secretURL := func(path string) string {
		return strings.Replace(srv.URL, "https://", "https://user:"+leakUserinfo+"@", 1) + path + "?sig=" + leakQuery + "#" + leakFragment
	}

	g := newRig(t)
	g.write(t, "/run/corium/wg0.key", leakFile+"\n")
	g.write(t, "/etc/corium/auth", leakAuth)
	g.write(t, "/run/corium/empty", "")
	creds := fixture.CredentialsDir(t, map[string]string{"corium.wg0": leakCred})
	r := NewResolver(g.root, WithLogger(logger), WithFetch(trusting(srv)), WithCredentialsDir(creds),
		WithBackoff(retryPolicy(10*time.Millisecond, 40*time.Millisecond)))
	ctx := context.Background()

	v, err := r.Resolve(ctx, "wireguard[0].privateKeyFrom", secret.Source{File: "/run/corium/wg0.key"})
	if v.Reveal() != leakFile {
		t.Fatalf("file scenario did not resolve: %v", err)
	}
	record(v, err)
	go func() { time.Sleep(100 * time.Millisecond); g.write(t, "/run/corium/late", leakFile) }()
	record(r.Resolve(ctx, "wireguard[1].privateKeyFrom", secret.Source{File: "/run/corium/late", WaitFor: "10s"}))
	record(r.Resolve(ctx, "ha.authPassFrom", secret.Source{File: "/run/corium/empty", WaitFor: "100ms"}))
	v, err = r.Resolve(ctx, "join.tokenFrom", secret.Source{URL: secretURL("/ok"), AuthFile: "/etc/corium/auth", WaitFor: "10s"})
	if v.Reveal() != leakURL {
		t.Fatalf("url scenario did not resolve: %v", err)
	}
	record(v, err)
	for _, path := range []string{"/denied", "/busy", "/later", "/big", "/away"} {
		record(r.Resolve(ctx, "join.tokenFrom", secret.Source{URL: secretURL(path), AuthFile: "/etc/corium/auth", WaitFor: "300ms"}))
	}
	v, err = r.Resolve(ctx, "wireguard[0].peers[0].presharedKeyFrom", secret.Source{Credential: "corium.wg0"})
	if v.Reveal() != leakCred {
		t.Fatalf("credential scenario did not resolve: %v", err)
	}
	record(v, err)
	record(r.Resolve(ctx, "wireguard[0].peers[1].presharedKeyFrom", secret.Source{Credential: "corium.absent", WaitFor: "50ms"}))
	cancelled, cancel := context.WithCancel(ctx)
	time.AfterFunc(100*time.Millisecond, cancel)
	record(r.Resolve(cancelled, "join.tokenFrom", secret.Source{URL: secretURL("/busy"), AuthFile: "/etc/corium/auth", WaitFor: "1h"}))

	time.Sleep(100 * time.Millisecond) // the last datagrams
	all := strings.Join(append(outs, logs.String(), sock.Text()), "\n")
	// The outputs are there to search: every scenario spoke.
	for _, want := range []string{"waiting for /run/corium/late", "STATUS=join.tokenFrom: waiting for " + srv.URL + "/busy",
		"401 Unauthorized", "retry after 1h0m0s", "limit is 65536", "redirect leaves https", "stopped waiting", "credential corium.absent did not appear within 50ms"} {
		if !strings.Contains(all, want) {
			t.Errorf("outputs lack %q", want)
		}
	}
	for _, s := range []string{leakFile, leakURL, leakAuth, leakQuery, leakUserinfo, leakCred, leakFragment} {
		if strings.Contains(all, s) {
			t.Errorf("secret %s leaked into the outputs", s)
		}
	}
	if t.Failed() {
		t.Logf("all outputs:\n%s", all)
	}
}

// multi sends every record to each of its handlers.
type multi []slog.Handler

func (m multi) Enabled(ctx context.Context, l slog.Level) bool { return true }

func (m multi) Handle(ctx context.Context, r slog.Record) error {
	for _, h := range m {
		if err := h.Handle(ctx, r.Clone()); err != nil {
			return err
		}
	}
	return nil
}

func (m multi) WithAttrs(as []slog.Attr) slog.Handler {
	out := make(multi, len(m))
	for i, h := range m {
		out[i] = h.WithAttrs(as)
	}
	return out
}

func (m multi) WithGroup(name string) slog.Handler {
	out := make(multi, len(m))
	for i, h := range m {
		out[i] = h.WithGroup(name)
	}
	return out
}
