package bootstrap

import (
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/wgquick"
)

// planPrevious is prev as a plan hands it to render, which compares the
// last run's wg-quick files with files of placeholder secrets to choose
// between a reload and a change of whole peers (render.PeerDelta): in each
// file of an interface cfg names, every secret that is not one the
// document states inline (a key a SecretSource gives now, or one no longer
// given) is the placeholder, as the new file has it for a source. A plan
// resolves no secret, so it takes a source to hold what it held, as its
// masked diff of the same file does (planFile); an inline secret is in the
// document and compared as it is. prev itself is left as it was.
func planPrevious(prev *render.Previous, cfg *schema.Config) *render.Previous {
	if prev == nil {
		return nil
	}
	out := &render.Previous{Applied: prev.Applied, Confs: map[string][]byte{}}
	for name, conf := range prev.Confs {
		out.Confs[name] = conf
	}
	inline := inlineSecrets(cfg)
	for _, wg := range cfg.WireGuard {
		if conf, ok := out.Confs[wg.Name]; ok {
			out.Confs[wg.Name] = placeholderKeys(conf, inline)
		}
	}
	return out
}

// placeholderKeys is conf, as wgquick reads and writes it, with each
// secret not among inline replaced by dummyKey (every secret of the format
// is a key); a file that does not parse is returned as it is (render
// refuses one whose readings disagree, and the plan hides it whole).
func placeholderKeys(conf []byte, inline map[string]bool) []byte {
	f, err := wgquick.Parse(conf)
	if err != nil {
		return conf
	}
	return wgquick.Marshal(secret.ReplacedIn(f, func(v secret.Value) secret.Value {
		if inline[v.Reveal()] {
			return v
		}
		return secret.NewValue(dummyKey)
	}))
}

// inlineSecrets are the values of the secrets cfg states inline.
func inlineSecrets(cfg *schema.Config) map[string]bool {
	out := map[string]bool{}
	for _, f := range schema.SecretFields(cfg) {
		if f.Inline != nil {
			out[f.Inline.Reveal()] = true
		}
	}
	return out
}
