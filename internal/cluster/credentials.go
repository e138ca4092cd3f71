package cluster

import (
	"path"

	"github.com/corium/corium-agent/internal/schema"
)

// ShippedCredentials are the credential IDs the shipped image's
// corium-agent.service hands the agent: its ImportCredential= globs and the
// IDs of its LoadCredentialEncrypted= drop-ins (image/usr/lib/systemd/system;
// a test holds this list to those files).
var ShippedCredentials = []string{"corium.*"}

// credentials: the agent reads a credential: secret from the directory
// systemd hands its unit, which holds only what the unit imports or loads.
// A name outside all of those (a sealed credential's delivery name,
// corium-sealed.wg0, or one without the corium. prefix) never reaches it
// from the shipped image: the agent waits for it and fails. A warning: a
// derived image may load it in a drop-in of its own.
func (c *check) credentials() {
	for _, n := range c.set {
		for _, f := range schema.SecretFields(n.cfg) {
			if f.From == nil || f.From.Credential == "" {
				continue
			}
			p := f.FromPath() + ".credential"
			if n.bad[p] || shipped(f.From.Credential) {
				continue
			}
			c.warnf(n, p, nil,
				"%s is no credential the shipped image's corium-agent.service delivers (ImportCredential=corium.*, and no LoadCredentialEncrypted= drop-in): systemd never hands it to the agent, which fails waiting for it; name it corium.NAME (a sealed one is decrypted as that ID, from its corium-sealed. delivery name by a LoadCredentialEncrypted= drop-in), unless the node's image adds a drop-in that loads it",
				f.From.Credential)
		}
	}
}

func shipped(name string) bool {
	for _, g := range ShippedCredentials {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
	}
	return false
}
