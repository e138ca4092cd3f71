package cluster

import (
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// datasources: controllers with kine share one database, and each reads
// its datasource URL from where its own document says. The URL is a
// secret resolved on each node, so it is never compared; where it is read
// from is: a file on two controllers and a URL on the third may hand the
// third another database, where it starts a second, empty control plane.
// A warning: two places may hold one URL. Nothing read from a place is
// shown but its kind and, for a file or a credential, its name (a URL may
// carry a token in its query).
func (c *check) datasources() {
	var ref *node
	for _, n := range c.set {
		s := n.cfg.Storage.DataSourceFrom
		if !isController(n) || n.eff.Storage.Type != schema.StorageKine || s == nil || n.bad["storage.dataSourceFrom"] {
			continue
		}
		if ref == nil {
			ref = n
			continue
		}
		r := ref.cfg.Storage.DataSourceFrom
		if sameSource(*s, *r) {
			continue
		}
		c.warnf(n, "storage.dataSourceFrom", []Place{ref.at("storage.dataSourceFrom")},
			"reads kine's datasource from %s, but %s reads it from %s: controllers that read it from different places may be handed different databases, and one on another database runs a second, empty control plane; read it from one place on every controller (the same file, URL or credential name)",
			describeSource(*s, nil), ref.File, describeSource(*r, s))
	}
}

func sameSource(a, b secret.Source) bool {
	return a.File == b.File && a.URL == b.URL && a.Credential == b.Credential
}

// describeSource says where s reads from without quoting a URL; against,
// when set, is the source it is compared with, so two URLs read as two.
func describeSource(s secret.Source, against *secret.Source) string {
	switch {
	case s.File != "":
		return "the file " + s.File
	case s.Credential != "":
		return "the credential " + s.Credential
	case against != nil && against.URL != "":
		return "another URL"
	}
	return "a URL"
}
