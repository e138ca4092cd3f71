package resolve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/systemd/notify"
)

// Resolver turns Sources into Values. It is safe for concurrent use.
type Resolver struct {
	root           rootfs.Root
	fetch          *fetch.Client
	credentialsDir string
	log            *slog.Logger
	status         func(string)
	backoff        retry.Policy
}

// Option configures a Resolver.
type Option func(*Resolver)

// WithFetch sets the HTTPS client for url sources (fetch.New() otherwise).
func WithFetch(c *fetch.Client) Option { return func(r *Resolver) { r.fetch = c } }

// WithCredentialsDir sets where credentials are read ($CREDENTIALS_DIRECTORY
// otherwise).
func WithCredentialsDir(dir string) Option { return func(r *Resolver) { r.credentialsDir = dir } }

// WithLogger sets the logger for progress lines (slog.Default() otherwise).
func WithLogger(l *slog.Logger) Option { return func(r *Resolver) { r.log = l } }

// WithStatus sets where progress lines go besides the log (the service
// manager's status line through sd_notify otherwise).
func WithStatus(f func(line string)) Option { return func(r *Resolver) { r.status = f } }

// WithBackoff sets the retry loop's base, cap, clock and jitter for every
// source kind, url included (the fetch client's own backoff is not used).
func WithBackoff(p retry.Policy) Option {
	return func(r *Resolver) {
		r.backoff = retry.Policy{Base: p.Base, Cap: p.Cap, Clock: p.Clock, Jitter: p.Jitter}
	}
}

// NewResolver returns a resolver reading files under root.
func NewResolver(root rootfs.Root, opts ...Option) *Resolver {
	r := &Resolver{root: root, credentialsDir: os.Getenv("CREDENTIALS_DIRECTORY"), log: slog.Default()}
	r.status = func(line string) {
		if _, err := notify.Status(line); err != nil {
			r.log.Warn("the service manager's status line was not updated", "error", err)
		}
	}
	for _, o := range opts {
		o(r)
	}
	if r.fetch == nil {
		r.fetch = fetch.New()
	}
	return r
}

// kind is what a secret.Source reads, with the words its messages use.
type kind struct {
	what      string // "/run/corium/wg0.key", "https://host/path", "credential corium.x"
	notThere  string // for a single attempt
	neverCame string // for a wait that ran out
	attempt   func(ctx context.Context) (secret.Value, error)
}

// Resolve reads src, retrying "not there yet" until src.WaitFor runs out.
// path is the field path the source was written at
// (wireguard[0].privateKeyFrom); it starts every progress line and error.
func (r *Resolver) Resolve(ctx context.Context, path string, src secret.Source) (secret.Value, error) {
	k, err := r.kindOf(src)
	if err != nil {
		return secret.Value{}, fmt.Errorf("%s: %w", path, err)
	}
	policy := r.backoff
	policy.Wait = src.Wait()
	policy.Report = func(a retry.Attempt) {
		if !a.Retrying {
			return
		}
		line := fmt.Sprintf("%s: waiting for %s (attempt %d, next in %s)", path, k.what, a.N, roundDelay(a.Next))
		r.log.Info(line, "field", path, "reason", a.Err.Error())
		r.status(line)
	}
	var v secret.Value
	start := time.Now()
	err = retry.Do(ctx, policy, func(ctx context.Context) error {
		var err error
		v, err = k.attempt(ctx)
		return err
	})
	if err != nil {
		return secret.Value{}, failure(path, k, err)
	}
	r.log.Info(fmt.Sprintf("%s: resolved from %s", path, k.what), "field", path, "took", roundDelay(time.Since(start)))
	return v, nil
}

func (r *Resolver) kindOf(src secret.Source) (kind, error) {
	switch {
	case src.File != "" && src.URL == "" && src.Credential == "":
		return r.fileKind(src.File), nil
	case src.URL != "" && src.File == "" && src.Credential == "":
		return r.urlKind(src.URL, src.AuthFile), nil
	case src.Credential != "" && src.File == "" && src.URL == "":
		return r.credentialKind(src.Credential)
	}
	return kind{}, errors.New("exactly one of file, url and credential must be set")
}

func (r *Resolver) fileKind(p string) kind {
	return kind{
		what: p, notThere: "is not there", neverCame: "did not appear",
		attempt: func(context.Context) (secret.Value, error) { return readSecretFile(r.root, p, p) },
	}
}

// failure shapes the error of a failed resolution: the field path, what was
// waited for and for how long, and the last reason.
func failure(path string, k kind, err error) error {
	var (
		gaveUp  *retry.GaveUpError
		stopped *retry.StoppedError
	)
	switch {
	case errors.As(err, &stopped):
		return fmt.Errorf("%s: stopped waiting for %s after %s: %w", path, k.what, retry.Count(stopped.Attempts), stopped.Err)
	case !errors.As(err, &gaveUp):
		return fmt.Errorf("%s: %w", path, err)
	case gaveUp.RetryAfter > 0:
		return fmt.Errorf("%s: %s: %w", path, k.what, err)
	case gaveUp.Wait == 0:
		return fmt.Errorf("%s: %s %s (tried once; set waitFor to wait for it): %w", path, k.what, k.notThere, gaveUp.Last)
	}
	return fmt.Errorf("%s: %s %s within %s (%s; last: %w)", path, k.what, k.neverCame, gaveUp.Wait, retry.Count(gaveUp.Attempts), gaveUp.Last)
}

// roundDelay keeps progress lines short: 4.2s, 350ms.
func roundDelay(d time.Duration) time.Duration {
	if d >= time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}
