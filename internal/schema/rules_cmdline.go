package schema

import (
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/secret"
)

// cmdline: a document on the kernel command line is readable by every user
// of the node in /proc/cmdline, so a secret written in it there is
// everybody's. A warning, not an error: the node that reads its document
// there has shown it already, and refusing to provision it would hide
// nothing; a lab may accept it, --strict refuses it, and the cmdline command
// refuses to make such a line.
func (v *crossCheck) cmdline() {
	for _, s := range CmdlineSecrets(v.cfg) {
		if s.URLParts == nil {
			from := s.Field.FromPath()[strings.LastIndexByte(s.Field.FromPath(), '.')+1:]
			v.warnf(s.Path, "is an inline secret on the kernel command line, where every user of the node can read it (/proc/cmdline); use %s with a systemd credential or a file instead", from)
			continue
		}
		v.warnf(s.Path, "carries credentials (its %s) on the kernel command line, where every user of the node can read them (/proc/cmdline); drop them from the URL and send a bearer token from authFile, or take the secret from a systemd credential or a file",
			strings.Join(s.URLParts, " and "))
	}
}

// CmdlineSecret is a secret that a document on the kernel command line
// shows every user of the node.
type CmdlineSecret struct {
	// Path is the field that shows it: the inline field (join.token), or
	// the SecretSource's url (join.tokenFrom.url).
	Path  string
	Field SecretField
	// URLParts are the parts of the source's URL that carry credentials
	// (secret.URLCredentials); nil for an inline secret.
	URLParts []string
}

// CmdlineSecrets are the secrets a document shows on the kernel command
// line: every one written inline, and every SecretSource URL carrying
// what the agent redacts everywhere else (userinfo, a query string such as
// a presigned URL's signature, a fragment). It is the one rule: validate
// --for cmdline warns of each, and the cmdline command refuses them.
func CmdlineSecrets(cfg *Config) []CmdlineSecret {
	var out []CmdlineSecret
	for _, f := range SecretFields(cfg) {
		if f.Inline != nil {
			out = append(out, CmdlineSecret{Path: f.Path, Field: f})
		}
		if f.From == nil {
			continue
		}
		if parts := secret.URLCredentials(f.From.URL); len(parts) > 0 {
			out = append(out, CmdlineSecret{Path: finding.Path(f.FromPath()).Field("url").String(), Field: f, URLParts: parts})
		}
	}
	return out
}
