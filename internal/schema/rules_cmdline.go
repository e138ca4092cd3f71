package schema

import "strings"

// cmdline: a document on the kernel command line is readable by every user
// of the node in /proc/cmdline, so an inline secret there is everybody's.
// A warning, not an error: a lab may accept it, and --strict refuses it.
func (v *crossCheck) cmdline() {
	for _, f := range CmdlineSecrets(v.cfg) {
		from := f.FromPath()[strings.LastIndexByte(f.FromPath(), '.')+1:]
		v.warnf(f.Path, "is an inline secret on the kernel command line, where every user of the node can read it (/proc/cmdline); use %s with a systemd credential or a file instead", from)
	}
}

// CmdlineSecrets are the secrets a document carries inline, which on the
// kernel command line every user of the node can read: what validate --for
// cmdline warns of, and what the cmdline command refuses.
func CmdlineSecrets(cfg *Config) []SecretField {
	var out []SecretField
	for _, f := range SecretFields(cfg) {
		if f.Inline != nil {
			out = append(out, f)
		}
	}
	return out
}
