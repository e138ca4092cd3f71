package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/source"
)

// credentialFlags are cmdline's --credential NAME=FILE, in the order
// given.
type credentialFlags []string

func (c *credentialFlags) String() string { return strings.Join(*c, " ") }

func (c *credentialFlags) Set(v string) error {
	*c = append(*c, v)
	return nil
}

// maxCredentialFile bounds what is read of a --credential file: a sealed
// credential goes on a kernel command line of 2,047 bytes, so a file of a
// mebibyte is a wrong path (a log, /dev/zero), refused before it is read
// whole.
const maxCredentialFile = 1 << 20

// credentialUsage is --credential's help.
const credentialUsage = "carry the sealed credential in `NAME=FILE` (what systemd-creds encrypt --with-key=tpm2 printed) on the line as " +
	source.ParamSetCredential + "=NAME:BASE64, for a node with no disk; NAME is " + source.SealedPrefix + "ID for the document's credential corium.ID (docs/pxe.md); repeatable"

// credentialParams are the parameters that carry the sealed credentials
// asked for, checked as validate checks them on a line (the name, the key,
// the PCRs, the document reading them); the findings go to stderr, and ok
// is false when one is an error. No value is ever printed but on the line.
func credentialParams(creds credentialFlags, cfg *schema.Config, stderr io.Writer) (params []string, ok bool) {
	ok = true
	for _, c := range creds {
		name, file, found := strings.Cut(c, "=")
		if !found || name == "" || file == "" {
			fmt.Fprintf(stderr, "corium-agent cmdline: --credential %q: write NAME=FILE, e.g. %swg0=wg0.cred\n", name, source.SealedPrefix)
			ok = false
			continue
		}
		data, err := rootfs.ReadNamed(file, maxCredentialFile)
		if err != nil {
			fmt.Fprintf(stderr, "corium-agent cmdline: --credential %s: %v\n", name, err)
			ok = false
			continue
		}
		var b64 string
		if _, b64, err = secret.ReadSealed(data); err != nil {
			b64 = strings.TrimSpace(string(data)) // CheckCredential says why, quoting nothing
		}
		for _, f := range source.CheckCredential(name, b64, cfg) {
			fmt.Fprintf(stderr, "corium-agent cmdline: --credential %s (%s): %s\n", name, file, severityWord(f)+f.Message)
			ok = ok && f.Severity != finding.Error
		}
		params = append(params, source.CredentialParam(name, b64))
	}
	return params, ok
}

func severityWord(f finding.Finding) string {
	if f.Severity == finding.Warning {
		return "warning: "
	}
	return ""
}
