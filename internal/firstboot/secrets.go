package firstboot

import (
	"context"

	"github.com/corium/corium-agent/internal/bootstrap"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// SecretResolver resolves one SecretSource; path is the field path used in
// messages. *secret.Resolver is one.
type SecretResolver interface {
	Resolve(ctx context.Context, path string, src secret.Source) (secret.Value, error)
}

// secretField is one SecretSource in the document, by its field path.
type secretField struct {
	Path   string
	Source secret.Source
}

// secretFields lists every SecretSource of the document in document order,
// keyed the way bootstrap.Secrets expects ("...From").
func secretFields(cfg *schema.Config) []secretField {
	var out []secretField
	if cfg.Join.TokenFrom != nil {
		out = append(out, secretField{"join.tokenFrom", *cfg.Join.TokenFrom})
	}
	if cfg.HA.AuthPassFrom != nil {
		out = append(out, secretField{"ha.authPassFrom", *cfg.HA.AuthPassFrom})
	}
	for i, wg := range cfg.WireGuard {
		if wg.PrivateKeyFrom != nil {
			out = append(out, secretField{bootstrap.PrivateKeyPath(i) + "From", *wg.PrivateKeyFrom})
		}
		for j, p := range wg.Peers {
			if p.PresharedKeyFrom != nil {
				out = append(out, secretField{bootstrap.PresharedKeyPath(i, j) + "From", *p.PresharedKeyFrom})
			}
		}
	}
	return out
}

// resolveSecrets resolves every SecretSource; the first failure stops it and
// names the field (never the value).
func resolveSecrets(ctx context.Context, r SecretResolver, cfg *schema.Config) (bootstrap.Secrets, error) {
	out := bootstrap.Secrets{}
	for _, f := range secretFields(cfg) {
		v, err := r.Resolve(ctx, f.Path, f.Source)
		if err != nil {
			return nil, err // Resolve's errors already start with the field path
		}
		out[f.Path] = v
	}
	return out, nil
}

// placeholderSecrets stands in for every secret when planning: the plan
// resolves nothing. Keys that must parse (WireGuard keys) get a fixed dummy
// key; everything else a marker. Files holding them are marked Secret, so
// their content is never shown and never written.
func placeholderSecrets(cfg *schema.Config) bootstrap.Secrets {
	out := bootstrap.Secrets{}
	for _, f := range secretFields(cfg) {
		out[f.Path] = secret.NewValue(PlaceholderFor(f.Path))
	}
	return out
}

// dummyKey is a valid WireGuard key (32 zero bytes) used only in plans.
const dummyKey = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

// PlaceholderFor is the stand-in value of the secret at path in a plan.
func PlaceholderFor(path string) string {
	if isWireGuardKeyPath(path) {
		return dummyKey
	}
	return "(" + path + ")"
}

func isWireGuardKeyPath(path string) bool {
	return len(path) > 9 && path[:9] == "wireguard"
}
