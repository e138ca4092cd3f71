package main

import (
	"encoding/base64"
	"regexp"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source"
	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// The script carries the sealed credential on its kernel line as
// systemd.set_credential=corium-sealed.wg0: with the base64 on one line,
// the whole line is measured against the kernel's 2,047 bytes, and
// validate reads the script back valid; one credential more than the line
// holds is refused by cmdline and, in a script made by hand, by validate.
func TestCmdlineIPXECarriesASealedCredential(t *testing.T) {
	doc := writeConfig(t, "pxe.yaml", pxeDoc)
	sealed := fixture.SealedCredential(fixture.SealedTPM2, []int{7}, 420)
	cred := writeConfig(t, "wg0.cred", string(sealed))
	code, out, errOut := runCLI(t, "cmdline", "--ipxe", "--append", "console=ttyS0", "--credential", "corium-sealed.wg0="+cred, doc)
	if code != exitOK || errOut != "" {
		t.Fatalf("cmdline --ipxe --credential: exit %d, stderr %q", code, errOut)
	}
	b64 := strings.TrimSpace(string(sealed))
	kernel := strings.Split(out, "\n")[1]
	if !strings.Contains(kernel, " systemd.set_credential=corium-sealed.wg0:"+b64+" console=ttyS0") {
		t.Fatalf("the kernel line does not carry the credential before --append's parameters: %q", kernel)
	}
	script := writeConfig(t, "w1.ipxe", out)
	if code, vout, verr := runCLI(t, "validate", script); code != exitOK || strings.Contains(vout+verr, b64) {
		t.Fatalf("validate of the script: exit %d\n%s%s", code, vout, verr)
	}

	// The line's budget: the kernel keeps 2,047 bytes of the whole line.
	big := writeConfig(t, "join.cred", string(fixture.SealedCredential(fixture.SealedTPM2, []int{7}, 2047-len(kernel))))
	code, out, errOut = runCLI(t, "cmdline", "--ipxe", "--append", "console=ttyS0", "--credential", "corium-sealed.wg0="+cred, "--credential", "corium-sealed.join="+big, doc)
	if code != exitFailed || out != "" || !strings.Contains(errOut, "the kernel keeps 2047") {
		t.Fatalf("a line over the budget: exit %d, stdout %q, stderr %q; want it refused", code, out, errOut)
	}
	bigB64 := strings.TrimSpace(string(fixture.SealedCredential(fixture.SealedTPM2, []int{7}, 2047-len(kernel))))
	over := strings.Replace(string(readTestFile(t, script)), " console=ttyS0", " "+source.CredentialParam("corium-sealed.join", bigB64)+" console=ttyS0", 1)
	if code, vout, _ := runCLI(t, "validate", writeConfig(t, "over.ipxe", over)); code != exitFailed || !strings.Contains(vout, "the kernel keeps 2047") {
		t.Errorf("validate of a script over the budget: exit %d\n%s", code, vout)
	}
}

// Without --append the rest of the line is not known: the credentials
// count with the agent's parameters, so the room they leave for it is
// warned of as for the document alone.
func TestCmdlineCredentialCountsTowardTheRoom(t *testing.T) {
	doc := writeConfig(t, "pxe.yaml", pxeDoc)
	_, alone, _ := runCLI(t, "cmdline", doc)
	cred := writeConfig(t, "wg0.cred", string(fixture.SealedCredential(fixture.SealedTPM2, []int{7}, (2047-len(alone)-300)*3/4)))
	code, out, errOut := runCLI(t, "cmdline", "--ipxe", "--credential", "corium-sealed.wg0="+cred, doc)
	if code != exitOK || out == "" || !strings.Contains(errOut, "warning:") || !strings.Contains(errOut, "leaving") {
		t.Errorf("a credential leaving less than %d bytes for the rest: exit %d, stderr %q; want the room warning", source.CmdlineRoom, code, errOut)
	}
}

// A credential a node could not open, or that would hand the agent
// something else than the secret, is refused by cmdline and by validate
// reading a script with it, naming the parameter and quoting no value; the
// good one beside it passes.
func TestSealedCredentialRefusals(t *testing.T) {
	doc := writeConfig(t, "pxe.yaml", pxeDoc)
	good := fixture.SealedCredential(fixture.SealedTPM2, []int{7}, 420)
	for _, c := range []struct {
		name, param string
		data        []byte
		want        string
	}{
		{"import glob", "systemd.set_credential=corium.wg0:", good, "ImportCredential=corium.*"},
		{"binary form", "systemd.set_credential_binary=corium-sealed.wg0:", good, "base64-decodes"},
		{"PCR 9", "systemd.set_credential=corium-sealed.wg0:", fixture.SealedCredential(fixture.SealedTPM2, []int{7, 9}, 420), "sealed to PCR 9"},
		{"PCR 12", "systemd.set_credential=corium-sealed.wg0:", fixture.SealedCredential(fixture.SealedTPM2, []int{12}, 420), "sealed to PCR 12"},
		{"host key", "systemd.set_credential=corium-sealed.wg0:", fixture.SealedCredential(fixture.SealedHostTPM2, []int{7}, 420), "host key"},
		{"no key", "systemd.set_credential=corium-sealed.wg0:", fixture.SealedCredential(fixture.SealedNull, nil, 120), "no key at all"},
		{"cleartext", "systemd.set_credential=corium-sealed.wg0:", []byte("c2VjcmV0LXZhbHVlLW5vdC1zZWFsZWQ="), "is not a ciphertext"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b64 := strings.TrimSpace(string(c.data))
			line := "corium.config=data:;base64," + base64.StdEncoding.EncodeToString([]byte(pxeDoc)) + " " + c.param + b64 + " " + source.CredentialParam("corium-sealed.join", strings.TrimSpace(string(good)))
			cmdlineFile := writeConfig(t, "n.cmdline", line+"\n")
			code, out, errOut := runCLI(t, "validate", cmdlineFile)
			path := regexp.QuoteMeta(strings.TrimSuffix(strings.SplitN(c.param, ":", 2)[0], ":"))
			if code != exitFailed || !regexp.MustCompile(path+`: .*`+regexp.QuoteMeta(c.want)).MatchString(out) {
				t.Errorf("validate: exit %d, want an error at %s saying %q:\n%s%s", code, path, c.want, out, errOut)
			}
			if strings.Contains(out+errOut, b64) {
				t.Error("validate quoted the credential's value")
			}
			if strings.Contains(out, "systemd.set_credential=corium-sealed.join") {
				t.Errorf("the good credential beside it was refused:\n%s", out)
			}
			if c.name == "binary form" {
				return // cmdline prints the text form only
			}
			name := strings.TrimSuffix(strings.TrimPrefix(c.param, "systemd.set_credential="), ":")
			code, out, errOut = runCLI(t, "cmdline", "--ipxe", "--credential", name+"="+writeConfig(t, "x.cred", string(c.data)), doc)
			if code != exitFailed || out != "" || !strings.Contains(errOut, c.want) || strings.Contains(errOut, b64) {
				t.Errorf("cmdline --credential: exit %d, stdout %q, stderr %q", code, out, errOut)
			}
		})
	}
}

// The name a credential is checked against is the image's: the glob
// corium-agent.service imports is the one CheckCredentials keeps sealed
// credentials out of.
func TestImportGlobIsTheImages(t *testing.T) {
	unit := string(readTestFile(t, "../../image/usr/lib/systemd/system/corium-agent.service"))
	got := regexp.MustCompile(`(?m)^ImportCredential=(.*)$`).FindAllStringSubmatch(unit, -1)
	if len(got) != 1 || got[0][1] != source.ImportGlob {
		t.Errorf("corium-agent.service imports %v; the credential check assumes ImportCredential=%s alone", got, source.ImportGlob)
	}
	if strings.HasPrefix(source.SealedPrefix, strings.TrimSuffix(source.ImportGlob, "*")) {
		t.Errorf("%s* is matched by ImportCredential=%s", source.SealedPrefix, source.ImportGlob)
	}
}
