package bootstrap

import (
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/wgquick"
)

// planPrevious is prev as a plan hands it to render, which compares the
// last run's wg-quick files with files of placeholder secrets to choose
// between a reload and a change of whole peers (render.PeerDelta): in each
// file of an interface cfg names, the value of a key that a SecretSource
// gives now (the private key, a peer's preshared key) is the placeholder,
// as the new file has it. A plan resolves no secret, so it takes a source
// to hold what it held, as its masked diff of the same file does
// (planFile); an inline secret is in the document and compared as it is.
// prev itself is left as it was.
func planPrevious(prev *render.Previous, cfg *schema.Config) *render.Previous {
	if prev == nil {
		return nil
	}
	out := &render.Previous{Applied: prev.Applied, Confs: map[string][]byte{}}
	for name, conf := range prev.Confs {
		out.Confs[name] = conf
	}
	for _, wg := range cfg.WireGuard {
		if conf, ok := out.Confs[wg.Name]; ok {
			out.Confs[wg.Name] = placeholderKeys(conf, wg)
		}
	}
	return out
}

// placeholderKeys is conf, as wgquick reads and writes it, with its
// source-given keys replaced by dummyKey; a file that does not parse is
// returned as it is (render refuses one whose readings disagree, and the
// plan hides it whole).
func placeholderKeys(conf []byte, wg schema.WireGuard) []byte {
	f, err := wgquick.Parse(conf)
	if err != nil {
		return conf
	}
	fromSource := map[plan.Key]bool{}
	for _, p := range wg.Peers {
		var k plan.Key
		if p.PresharedKeyFrom != nil && k.UnmarshalText([]byte(p.PublicKey)) == nil {
			fromSource[k] = true
		}
	}
	placeholder := secret.NewValue(dummyKey)
	if wg.PrivateKeyFrom != nil && !f.Interface.PrivateKey.IsZero() {
		f.Interface.PrivateKey = placeholder
	}
	for i, p := range f.Peers {
		if fromSource[plan.Key(p.PublicKey)] && !p.PresharedKey.IsZero() {
			f.Peers[i].PresharedKey = placeholder
		}
	}
	return wgquick.Marshal(f)
}
