package source

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/corium/corium-agent/internal/finding"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
)

// A sealed credential on the kernel command line: the one way systemd 257
// takes a credential into a node with no disk and no hypervisor that a PXE
// script can carry (docs/pxe.md, "A sealed credential"). PID 1 writes
// systemd.set_credential=NAME:VALUE to /run/credentials/@system/NAME as it
// stands, and systemd.set_credential_binary= base64-decoded
// (src/core/import-creds.c, proc_cmdline_callback); the drop-in's
// LoadCredentialEncrypted=corium.ID:corium-sealed.ID finds it there and
// reads it as base64 before decrypting it (src/core/exec-credential.c,
// READ_FULL_FILE_UNBASE64). So the line carries the base64 systemd-creds
// encrypt prints, in the text form.
const (
	ParamSetCredential       = "systemd.set_credential"
	ParamSetCredentialBinary = "systemd.set_credential_binary"
	// SealedPrefix names a sealed credential on the line: outside the
	// unit's ImportCredential= glob, so only the drop-in decrypts it.
	SealedPrefix = "corium-sealed."
	// ImportGlob is corium-agent.service's ImportCredential=: what it
	// matches reaches the agent as it stands, not decrypted.
	ImportGlob = "corium.*"
)

// carrierPCRs are the PCRs that measure the kernel command line, or an
// initrd, that carries a credential: a credential bound to one cannot open
// at the boot that delivers it, since delivering it changes the PCR.
var carrierPCRs = map[int]string{
	8:  "GRUB measures every command it runs, the kernel line among them, into PCR 8",
	9:  "the kernel's EFI stub measures its command line and initrd into PCR 9 (Linux 6.1, efi/libstub: measure EFI LoadOptions)",
	12: "systemd-stub measures the command line and the credentials it passes into PCR 12",
}

// LineCredential is one systemd.set_credential= (or _binary=) on a line.
type LineCredential struct {
	Name, Value string
	Binary      bool
}

// Param is the parameter as the line spells it, without the value.
func (c LineCredential) Param() string {
	p := ParamSetCredential
	if c.Binary {
		p = ParamSetCredentialBinary
	}
	return p + "=" + c.Name
}

// CredentialParam is the parameter that carries a sealed credential to
// the system credentials: the ciphertext's base64, in the text form.
func CredentialParam(name, base64 string) string {
	return ParamSetCredential + "=" + name + ":" + base64
}

// LineCredentials are the agent's credentials a kernel command line sets:
// those named corium.* or corium-sealed.*, in line order, found as PID 1
// finds them (pid1Words, pid1KeyIs): systemd.set-credential= and a
// parameter in quotes set one too. Others are another program's.
func LineCredentials(line string) []LineCredential {
	var out []LineCredential
	for _, tok := range pid1Words(line) {
		key, val, _ := strings.Cut(tok, "=")
		binary := pid1KeyIs(key, ParamSetCredentialBinary)
		if !binary && !pid1KeyIs(key, ParamSetCredential) {
			continue
		}
		name, value, _ := strings.Cut(val, ":")
		if strings.HasPrefix(name, "corium.") || strings.HasPrefix(name, SealedPrefix) {
			out = append(out, LineCredential{Name: name, Value: value, Binary: binary})
		}
	}
	return out
}

// CheckCredentials holds each credential a kernel command line sets for
// the agent to what a node can open: sealed (never a secret in the clear,
// which every user reads in /proc/cmdline), under a corium-sealed. name
// the drop-in decrypts, to a TPM2 alone (a diskless node makes its host
// key anew at every boot) and to no PCR that measures the line itself.
// cfg, when not nil, is the document the line carries: a credential none
// of its secrets reads is a warning. No value is ever quoted.
func CheckCredentials(creds []LineCredential, cfg *schema.Config) []finding.Finding {
	var out []finding.Finding
	fail := func(c LineCredential, sev finding.Severity, format string, args ...any) {
		out = append(out, finding.Finding{Path: c.Param(), Severity: sev, Message: fmt.Sprintf(format, args...)})
	}
	for _, c := range creds {
		id, sealed := strings.CutPrefix(c.Name, SealedPrefix)
		if !sealed {
			fail(c, finding.Error, "is matched by corium-agent.service's ImportCredential=%s, which hands the agent what the kernel command line set as it stands: a secret there is every user's (/proc/cmdline), a sealed one reaches the agent undecrypted; seal it and set it as %s%s, which the drop-in LoadCredentialEncrypted=corium.%s:%s%s decrypts (docs/secrets.md)",
				ImportGlob, SealedPrefix, strings.TrimPrefix(c.Name, "corium."), strings.TrimPrefix(c.Name, "corium."), SealedPrefix, strings.TrimPrefix(c.Name, "corium."))
			continue
		}
		if err := checkSealed(c, id); err != nil {
			fail(c, finding.Error, "%s", err.Error())
			continue
		}
		if cfg != nil && !readsCredential(cfg, "corium."+id) {
			fail(c, finding.Warning, "nothing in the document reads credential corium.%s, which the drop-in LoadCredentialEncrypted=corium.%s:%s%s decrypts it as; name it in a ...From: {credential: corium.%s}, or drop it from the line", id, id, SealedPrefix, id, id)
		}
	}
	return out
}

// CheckCredential is CheckCredentials of one credential cmdline is asked
// to put on the line.
func CheckCredential(name, base64 string, cfg *schema.Config) []finding.Finding {
	return CheckCredentials([]LineCredential{{Name: name, Value: base64}}, cfg)
}

func checkSealed(c LineCredential, id string) error {
	if c.Binary {
		return fmt.Errorf("PID 1 base64-decodes a %s= value, and LoadCredentialEncrypted= reads its source as base64, so the credential never decrypts: write %s=%s: with the base64 systemd-creds encrypt prints (corium-agent cmdline --credential does)", ParamSetCredentialBinary, ParamSetCredential, c.Name)
	}
	if id == "" || !secret.CredentialName.MatchString(id) {
		return fmt.Errorf("names no credential after %s: use %sID for corium.ID", SealedPrefix, SealedPrefix)
	}
	s, _, err := secret.ReadSealed([]byte(c.Value))
	switch {
	case errors.Is(err, secret.ErrNotSealed):
		return fmt.Errorf("%w; a value in the clear on the kernel command line is every user's (/proc/cmdline): seal it on the node with systemd-creds encrypt --with-key=tpm2 --name=corium.%s", err, id)
	case err != nil:
		return err
	case !s.TPM2 && !s.Host:
		return fmt.Errorf("is encrypted with --with-key=%s, no key at all: anyone who reads /proc/cmdline decrypts it; seal it with --with-key=tpm2", s.Key)
	case s.Host:
		return fmt.Errorf("is encrypted with --with-key=%s, which takes the host key /var/lib/systemd/credential.secret: a node without a disk makes that key anew at every boot, so it never decrypts; seal it with --with-key=tpm2", s.Key)
	}
	for _, pcr := range s.PCRs {
		if why, ok := carrierPCRs[pcr]; ok {
			return fmt.Errorf("is sealed to PCR %d, and %s: the boot that carries the credential changes the PCR it must match, so it never decrypts; seal it with --tpm2-pcrs=7 (docs/secrets.md, \"The PCR choice\")", pcr, why)
		}
	}
	return nil
}

// readsCredential says a secret of cfg is read from credential name.
func readsCredential(cfg *schema.Config, name string) bool {
	return slices.ContainsFunc(schema.SecretFields(cfg), func(f schema.SecretField) bool {
		return f.From != nil && f.From.Credential == name
	})
}
