package resolve

import (
	"context"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/testutil/agentbin"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

func TestFileAppearingAfterDelay(t *testing.T) {
	g := newRig(t)
	go func() {
		time.Sleep(300 * time.Millisecond)
		g.write(t, "/run/corium/wg0.key", "  c2VjcmV0LWtleS1ieXRlcw==\n")
	}()
	v, err := g.resolver().Resolve(context.Background(), "wireguard[0].privateKeyFrom", secret.Source{File: "/run/corium/wg0.key", WaitFor: "10s"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Reveal() != "c2VjcmV0LWtleS1ieXRlcw==" {
		t.Fatalf("value not trimmed or wrong: %q", v.Reveal())
	}
	st := g.status()
	if len(st) == 0 {
		t.Fatal("no progress line while waiting")
	}
	line := regexp.MustCompile(`^wireguard\[0\]\.privateKeyFrom: waiting for /run/corium/wg0\.key \(attempt 1, next in [0-9.]+m?s\)$`)
	if !line.MatchString(st[0]) {
		t.Fatalf("first progress line %q", st[0])
	}
	if !strings.Contains(g.logs.String(), "waiting for /run/corium/wg0.key") || !strings.Contains(g.logs.String(), "resolved from /run/corium/wg0.key") {
		t.Fatalf("log lacks the progress:\n%s", g.logs)
	}
}

func TestFileReadUnderTheRootOnly(t *testing.T) {
	g := newRig(t)
	// /etc/hostname exists on the host but not under the root.
	_, err := g.resolver().Resolve(context.Background(), "join.tokenFrom", secret.Source{File: "/etc/hostname"})
	if err == nil || !strings.Contains(err.Error(), "/etc/hostname is not there (tried once") {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), g.root.Dir()) {
		t.Fatalf("error shows the host path of the root: %v", err)
	}
}

func TestEmptyFileIsNotThereYet(t *testing.T) {
	g := newRig(t)
	g.write(t, "/run/k", " \n")
	go func() {
		time.Sleep(200 * time.Millisecond)
		g.write(t, "/run/k", "token")
	}()
	v, err := g.resolver().Resolve(context.Background(), "join.tokenFrom", secret.Source{File: "/run/k", WaitFor: "10s"})
	if err != nil || v.Reveal() != "token" {
		t.Fatalf("Resolve = %v", err)
	}
}

func TestFileNeverAppears(t *testing.T) {
	g := newRig(t)
	_, err := g.resolver().Resolve(context.Background(), "wireguard[0].privateKeyFrom", secret.Source{File: "/run/corium/wg0.key", WaitFor: "300ms"})
	want := regexp.MustCompile(`^wireguard\[0\]\.privateKeyFrom: /run/corium/wg0\.key did not appear within 300ms \(\d+ attempts; last: /run/corium/wg0\.key does not exist yet\)$`)
	if err == nil || !want.MatchString(err.Error()) {
		t.Fatalf("err = %v", err)
	}
}

func TestUnreadableFileFailsAtOnce(t *testing.T) {
	g := newRig(t)
	if err := g.root.MkdirAll("/run/corium/wg0.key", 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := g.resolver().Resolve(context.Background(), "wireguard[0].privateKeyFrom", secret.Source{File: "/run/corium/wg0.key", WaitFor: "1h"})
	if err == nil || err.Error() != "wireguard[0].privateKeyFrom: reading /run/corium/wg0.key: is a directory" {
		t.Fatalf("err = %v", err)
	}
	if len(g.status()) != 0 {
		t.Fatalf("a final failure was retried: %v", g.status())
	}
}

// The resolver hands a source's waitFor to the retry loop as its deadline:
// it gives up within one backoff step of it, never before. The clock moves
// only when slept on, and the jitter always takes the widest delay, the
// worst case for the deadline.
func TestDeadlineWithinOneStep(t *testing.T) {
	g := newRig(t)
	const wait, ceiling = 600 * time.Millisecond, 200 * time.Millisecond
	clock := fixture.NewClock()
	widest := func(n time.Duration) time.Duration { return max(n-1, 0) }
	r := g.resolver(WithBackoff(retry.Policy{Base: 100 * time.Millisecond, Cap: ceiling, Clock: clock, Jitter: widest}))
	start := clock.Now()
	_, err := r.Resolve(context.Background(), "ha.authPassFrom", secret.Source{File: "/run/pass", WaitFor: "600ms"})
	elapsed := clock.Now().Sub(start)
	if err == nil {
		t.Fatal("want an error")
	}
	if elapsed < wait || elapsed > wait+ceiling {
		t.Fatalf("gave up after %s (sleeps %v); want within one step (%s) of the %s wait", elapsed, clock.Sleeps(), ceiling, wait)
	}
}

func TestCancelStopsWaitAtOnce(t *testing.T) {
	g := newRig(t)
	ctx, cancel := context.WithCancel(context.Background())
	r := g.resolver(WithBackoff(retryPolicy(time.Hour, time.Hour)), WithStatus(func(string) { cancel() }))
	done := make(chan error, 1)
	go func() {
		_, err := r.Resolve(ctx, "join.tokenFrom", secret.Source{File: "/run/token", WaitFor: "1h"})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || !strings.HasPrefix(err.Error(), "join.tokenFrom: stopped waiting for /run/token") {
			t.Fatalf("err = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("still waiting 5s after cancellation (the next attempt was an hour away)")
	}
}

func TestCredentialRead(t *testing.T) {
	g := newRig(t)
	dir := fixture.CredentialsDir(t, map[string]string{"corium.wg0": "a2V5\n"})
	v, err := g.resolver(WithCredentialsDir(dir)).Resolve(context.Background(), "wireguard[0].privateKeyFrom", secret.Source{Credential: "corium.wg0"})
	if err != nil || v.Reveal() != "a2V5" {
		t.Fatalf("Resolve = %v", err)
	}
}

func TestCredentialFromEnvironment(t *testing.T) {
	t.Setenv("CREDENTIALS_DIRECTORY", fixture.CredentialsDir(t, map[string]string{"corium.join": "tok"}))
	v, err := NewResolver(newRig(t).root, WithStatus(func(string) {}), WithLogger(discard)).Resolve(context.Background(), "join.tokenFrom", secret.Source{Credential: "corium.join"})
	if err != nil || v.Reveal() != "tok" {
		t.Fatalf("Resolve = %v", err)
	}
}

func TestCredentialRefusals(t *testing.T) {
	g := newRig(t)
	dir := fixture.CredentialsDir(t, map[string]string{"x": "y"})
	for _, tc := range []struct {
		dir, name, want string
	}{
		{dir, "../etc/shadow", `wireguard[0].privateKeyFrom: credential name "../etc/shadow" has a path separator`},
		{dir, "corium/wg0", `wireguard[0].privateKeyFrom: credential name "corium/wg0" has a path separator`},
		{dir, "..", `credential name ".." is not a name`},
		{dir, "a b", `may hold only letters`},
		{"", "corium.wg0", "$CREDENTIALS_DIRECTORY is not set"},
		{"relative/dir", "corium.wg0", "is not an absolute path"},
		{dir, "corium.absent", "credential corium.absent is not there (tried once"},
	} {
		_, err := g.resolver(WithCredentialsDir(tc.dir)).Resolve(context.Background(), "wireguard[0].privateKeyFrom", secret.Source{Credential: tc.name})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("credential %q in %q: err = %v, want %q", tc.name, tc.dir, err, tc.want)
		}
	}
}

func TestSourceShape(t *testing.T) {
	_, err := newRig(t).resolver().Resolve(context.Background(), "join.tokenFrom", secret.Source{File: "/a", Credential: "b"})
	if err == nil || err.Error() != "join.tokenFrom: exactly one of file, url and credential must be set" {
		t.Fatalf("err = %v", err)
	}
}

func TestStatusGoesToNotifySocket(t *testing.T) {
	sock := listenNotify(t)
	g := newRig(t)
	r := NewResolver(g.root, WithLogger(discard), WithBackoff(retryPolicy(10*time.Millisecond, 10*time.Millisecond)))
	_, err := r.Resolve(context.Background(), "ha.authPassFrom", secret.Source{File: "/run/pass", WaitFor: "100ms"})
	if err == nil {
		t.Fatal("want an error")
	}
	got := sock.First(t)
	if !regexp.MustCompile(`^STATUS=ha\.authPassFrom: waiting for /run/pass \(attempt 1, next in [0-9.]+m?s\)$`).MatchString(got) {
		t.Fatalf("datagram %q", got)
	}
}

func TestMain(m *testing.M) {
	// The default status sink would otherwise talk to a real service
	// manager when the tests run under one.
	os.Unsetenv("NOTIFY_SOCKET")
	os.Exit(agentbin.Run(m))
}
