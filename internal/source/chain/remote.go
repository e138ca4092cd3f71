package chain

import (
	"context"
	"log/slog"
	"time"

	"github.com/corium/corium-agent/internal/fetch"
)

// fetchConfig fetches a corium.config= URL through the agent's one HTTPS
// client, which retries "not there yet" until wait runs out and fails at once
// on anything else (TLS verification, 401, 403, 500...).
func fetchConfig(ctx context.Context, o *Options, rawURL string, pinned bool, wait time.Duration) ([]byte, error) {
	client := o.Fetch
	if client == nil {
		client = fetch.New()
	}
	return client.Get(ctx, fetch.Request{
		URL:       rawURL,
		MaxBytes:  maxBody,
		Wait:      wait,
		AllowHTTP: pinned, // the digest, checked by the caller, stands in for TLS
		Report: func(a fetch.Attempt) {
			attrs := []any{"url", a.URL, "attempt", a.N, "error", a.Err.Error()}
			if a.Retrying {
				attrs = append(attrs, "retry_in", a.Next.Round(time.Millisecond).String())
			}
			o.Logger.Log(ctx, slog.LevelWarn, "fetching the configuration", attrs...)
		},
	})
}
