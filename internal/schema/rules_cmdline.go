package schema

import (
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/k0syaml"
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
		if s.InPatch {
			v.warnf(s.Path, "is a secret inside k0s.patch (plan masks it in k0s.yaml), and on the kernel command line every user of the node can read it (/proc/cmdline); deliver the document from a file or an https URL instead of inline, or take the value from a field that reads it on the node (ha.authPassFrom, storage.dataSourceFrom)")
			continue
		}
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
	// Path is the field that shows it: the inline field (join.token), the
	// SecretSource's url (join.tokenFrom.url), or the key inside k0s.patch
	// (k0s.patch["spec"]["extensions"]...["password"]).
	Path string
	// Field is the secret field; the zero value for a key of k0s.patch.
	Field SecretField
	// InPatch says the secret is a value inside k0s.patch that a plan
	// masks in k0s.yaml (k0syaml.PatchSecrets).
	InPatch bool
	// URLParts are the parts of the source's URL that carry credentials
	// (secret.URLCredentials); nil for an inline secret.
	URLParts []string
}

// CmdlineSecrets are the secrets a document shows on the kernel command
// line: every one written inline, every SecretSource URL carrying what the
// agent redacts everywhere else (userinfo, a query string such as a
// presigned URL's signature, a fragment), and every value inside k0s.patch
// that a plan masks in k0s.yaml (a helm repository's password, keepalived's
// authPass: the one list, k0syaml.PatchSecrets). It is the one rule:
// validate --for cmdline warns of each, and the cmdline command refuses
// them.
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
	return append(out, patchSecrets(cfg)...)
}

// patchSecrets are the values inside k0s.patch a plan masks. A patch that
// does not encode (which decoding YAML cannot give) is one secret as a
// whole: what it holds cannot be told.
func patchSecrets(cfg *Config) []CmdlineSecret {
	found, err := k0syaml.PatchSecrets(cfg.K0s.Patch)
	if err != nil {
		return []CmdlineSecret{{Path: "k0s.patch", InPatch: true}}
	}
	out := make([]CmdlineSecret, len(found))
	for i, steps := range found {
		p := finding.Path("k0s.patch")
		for _, s := range steps {
			if s.Index >= 0 {
				p = p.Index(s.Index)
			} else {
				p = p.Key(s.Key)
			}
		}
		out[i] = CmdlineSecret{Path: p.String(), InPatch: true}
	}
	return out
}
