package bootstrap

import (
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/schema"
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

// placeholderKeys re-spells conf's source-given key lines with dummyKey;
// a file whose peers cannot be told apart is returned as it is.
func placeholderKeys(conf []byte, wg schema.WireGuard) []byte {
	sections, ok := plan.ParseSections(conf)
	if !ok {
		return conf
	}
	fromSource := map[plan.Key]bool{}
	for _, p := range wg.Peers {
		var k plan.Key
		if p.PresharedKeyFrom != nil && k.UnmarshalText([]byte(p.PublicKey)) == nil {
			fromSource[k] = true
		}
	}
	lines := strings.SplitAfter(string(conf), "\n")
	peer, inInterface := -1, false
	for i, l := range lines {
		// Read as ParseSections reads it, so the peers counted here are
		// its peers.
		name, _, _ := strings.Cut(plan.ConfLine(l), "=")
		switch {
		case strings.EqualFold(name, "[Interface]"):
			inInterface = true
		case strings.EqualFold(name, "[Peer]"):
			inInterface, peer = false, peer+1
		case inInterface && strings.EqualFold(name, "PrivateKey") && wg.PrivateKeyFrom != nil:
			lines[i] = "PrivateKey = " + dummyKey + "\n"
		case !inInterface && peer >= 0 && strings.EqualFold(name, "PresharedKey") && fromSource[sections.Peers[peer].Key]:
			lines[i] = "PresharedKey = " + dummyKey + "\n"
		}
	}
	return []byte(strings.Join(lines, ""))
}
