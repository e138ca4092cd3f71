package bootstrap

import (
	"context"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// SecretResolver resolves one SecretSource; path is the field path used in
// messages. *resolve.Resolver is one.
type SecretResolver interface {
	Resolve(ctx context.Context, path string, src secret.Source) (secret.Value, error)
}

// resolveSecrets resolves every SecretSource, keyed the way render.Secrets
// expects (the "...From" path); the first failure stops it and names the
// field (never the value).
func resolveSecrets(ctx context.Context, r SecretResolver, cfg *schema.Config) (render.Secrets, error) {
	out := render.Secrets{}
	for _, f := range schema.SecretFields(cfg) {
		if f.From == nil {
			continue
		}
		v, err := r.Resolve(ctx, f.FromPath(), *f.From)
		if err != nil {
			return nil, err // Resolve's errors already start with the field path
		}
		out[f.FromPath()] = v
	}
	return out, nil
}

// placeholderSecrets stands in for every SecretSource when planning: the plan
// resolves nothing. Keys that must parse (WireGuard keys) get a fixed dummy
// key; everything else a marker. Files holding them are marked Secret, so
// their secret lines are never shown and never written.
func placeholderSecrets(cfg *schema.Config) render.Secrets {
	out := render.Secrets{}
	for _, f := range schema.SecretFields(cfg) {
		if f.From != nil {
			out[f.FromPath()] = secret.NewValue(placeholder(f))
		}
	}
	return out
}

// dummyKey is a valid WireGuard key (32 zero bytes) used only in plans.
const dummyKey = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

// placeholder is the stand-in value of a secret in a plan: a key that
// parses, a password keepalived accepts (8 characters at most), a
// datasource URL of a backend kine shares, a marker naming the field
// otherwise.
func placeholder(f schema.SecretField) string {
	switch f.Kind {
	case schema.SecretWireGuardKey:
		return dummyKey
	case schema.SecretPassword:
		return "(secret)"
	case schema.SecretDataSource:
		return "postgres://(" + f.FromPath() + ")"
	}
	return "(" + f.FromPath() + ")"
}
