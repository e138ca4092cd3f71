package cluster

import (
	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/schema"
)

// secretKey is an inline WireGuard secret of the set: where it is written.
type secretKey struct {
	n    *node
	path string
}

// keys: a public key of the set is never one of its secrets, and each
// interface's key pair is its own. A file's own keys are its own check.
func (c *check) keys() {
	secrets := map[wgtypes.Key]secretKey{}
	for _, n := range c.set {
		for _, f := range schema.SecretFields(n.cfg) {
			if f.Kind != schema.SecretWireGuardKey || f.Inline == nil {
				continue
			}
			if k, ok := parseKey(f.Inline.Reveal()); ok {
				if _, seen := secrets[k]; !seen {
					secrets[k] = secretKey{n, f.Path}
				}
			}
		}
	}
	// secret reports a public key that is a secret of another file; the
	// value is never shown, wherever it is found.
	secret := func(n *node, path string, k wgtypes.Key) bool {
		s, ok := secrets[k]
		if !ok {
			return false
		}
		if s.n != n {
			c.errorf(n, path, []Place{s.n.at(s.path)}, "is the secret %s %s, not a public key: give that interface's public key (wg pubkey), and treat the secret as exposed", s.n.File, s.path)
		}
		return true
	}
	c.owners = map[wgtypes.Key][]*iface{}
	c.ifaces(func(f *iface) {
		if f.wg.PrivateKey == nil && f.known && secret(f.n, f.path().Field("publicKey").String(), f.key) {
			f.known = false
		}
		for _, e := range f.peers {
			if e.keyOK && secret(f.n, e.path().Field("publicKey").String(), e.key) {
				e.keyOK = false
			}
		}
		if !f.known {
			return
		}
		for i, o := range c.owners[f.key] {
			if o.n != f.n {
				// The one whose peers expect another key is named (blame.go).
				bad, good := c.blameKey(f, o, f.key)
				field := bad.path().Field("publicKey").String()
				if bad.wg.PrivateKey != nil {
					field = bad.path().Field("privateKey").String()
				}
				c.errorf(bad.n, field, []Place{good.n.at(good.path().String())}, "gives this interface the key pair of %s: its peers cannot tell the two apart; each interface needs a key of its own (wg genkey)", good)
				c.explain(bad, field)
				c.owners[f.key][i] = good
				return
			}
		}
		c.owners[f.key] = append(c.owners[f.key], f)
	})
}
