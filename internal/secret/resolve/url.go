package resolve

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/corium/corium-agent/internal/secret"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/retry"
)

// MaxURLBytes caps a secret fetched from a URL.
const MaxURLBytes = 64 << 10

var errEmptyBody = errors.New("the server answered with an empty body")

func (r *Resolver) urlKind(rawURL, authFile string) kind {
	shown := secret.ShownURL(rawURL)
	return kind{
		what: shown, notThere: "was not available", neverCame: "was not available",
		attempt: func(ctx context.Context) (secret.Value, error) {
			req := fetch.Request{URL: rawURL, MaxBytes: MaxURLBytes}
			if authFile != "" {
				// Read on every attempt: the token may be written by another
				// unit after the agent started.
				token, err := readSecretFile(r.root, authFile, "authFile "+authFile)
				if err != nil {
					return secret.Value{}, err
				}
				req.Header = http.Header{"Authorization": {"Bearer " + token.Reveal()}}
			}
			body, err := r.fetch.Once(ctx, req)
			if err != nil {
				if transient, _ := retry.IsNotYet(err); transient {
					return secret.Value{}, err
				}
				return secret.Value{}, fmt.Errorf("fetching %s: %w%s", shown, err, authHint(err, authFile))
			}
			s := strings.TrimSpace(string(body))
			clear(body)
			if s == "" {
				return secret.Value{}, retry.NotYet(errEmptyBody)
			}
			return secret.NewValue(s), nil
		},
	}
}

// authHint says where the credentials of a refused request came from.
func authHint(err error, authFile string) string {
	var se *fetch.StatusError
	if !errors.As(err, &se) || (se.Code != http.StatusUnauthorized && se.Code != http.StatusForbidden) {
		return ""
	}
	if authFile == "" {
		return " (no authFile is set, so no bearer token was sent)"
	}
	return " (the bearer token is read from authFile " + authFile + ")"
}
