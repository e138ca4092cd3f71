package vm

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/render"
)

const agentUnit = render.AgentUnit

// The SMBIOS names the ciphertext travels under. They are outside the
// agent unit's ImportCredential=corium.*, which copies what it finds in
// the system credentials unchanged: a ciphertext under corium.wg0 would be
// handed to the agent as the key itself. The drop-in decrypts each into
// the name the document references.
const (
	sealedWG, sealedJoin = "corium-sealed.wg0", "corium-sealed.join"
	// sealPCRs is what the secrets are sealed against: PCR 7 (the Secure
	// Boot policy) is the same at every boot of this guest, while PCR 1
	// (platform configuration) measures the SMBIOS tables, and with them
	// the very credentials that deliver the ciphertext (docs/secrets.md).
	sealPCRs = "7"
	// sealedDropInPath is where a node's image carries the drop-in.
	sealedDropInPath = "/etc/systemd/system/corium-agent.service.d/sealed-credentials.conf"
)

// sealedDropIn has systemd decrypt the sealed key and join token with the
// node's TPM2 before the agent starts. A relative source is looked up in
// the credentials systemd received (SMBIOS among them) and the credstores;
// a missing one is skipped, so a node given cleartext credentials instead
// boots as before.
const sealedDropIn = `# Secrets sealed to this node's TPM2 (docs/secrets.md): systemd decrypts
# each before the agent starts; a credential it cannot decrypt fails the unit
# with 243/CREDENTIALS and the agent never runs.
[Service]
LoadCredentialEncrypted=` + wgCredential + `:` + sealedWG + `
LoadCredentialEncrypted=` + joinCredential + `:` + sealedJoin + `
`

func withSealedDropIn(s *staging) {
	s.WriteFile(sealedDropInPath, []byte(sealedDropIn), 0o644)
}

// sealedSecrets is what enrolment made: w1's secrets as ciphertext sealed
// to w1's TPM, by SMBIOS name, and what it cost.
type sealedSecrets struct {
	credentials map[string]string
	cleartext   map[string]string // what each was sealed from, for the searches
	tpmState    string            // w1's swtpm state directory
	publicKey   string            // the sealed WireGuard key's public key
	pcrs        string            // PCRs 1 and 7 in the enrolment boot
	took        time.Duration     // the enrolment boot, QEMU start to poweroff
}

// enrolW1 gives w1 its TPM and boots it once alone, before the cluster's
// first boot: its seed detached, no network, the agent masked for this
// boot only. The test seals w1's key and join token on the node (systemd
// 257's systemd-creds cannot seal without the TPM present), the secrets
// reaching systemd-creds on stdin over the command channel only, and w1
// is given the ciphertext as its SMBIOS credentials instead of the
// cleartext. w1's disk is then searched for the secrets as it is before
// its first boot.
func enrolW1(t *testing.T, n *twoNodes) *sealedSecrets {
	t.Helper()
	w1 := n.w1
	sealed := &sealedSecrets{credentials: map[string]string{}, tpmState: filepath.Join(t.TempDir(), "w1-tpm"),
		cleartext: map[string]string{wgCredential: n.keys.w1Key.String(), joinCredential: n.keys.joinToken},
		publicKey: n.keys.w1Key.PublicKey().String()}
	w1.addTPM(sealed.tpmState)

	seed, remote, creds := w1.Seed, w1.netRemote, w1.Credentials
	w1.Seed, w1.netRemote, w1.Credentials = "", "", map[string]string{}
	start := time.Now()
	// cloud-init=disabled: with no seed, cloud-init would spend four
	// minutes asking metadata services that are not there.
	w1.Start("systemd.mask="+agentUnit, "cloud-init=disabled")
	w1.WaitBooted()
	if a := w1.Show(agentUnit, "LoadState", "ExecMainStartTimestampMonotonic"); a["LoadState"] != "masked" || a["ExecMainStartTimestampMonotonic"] != "0" {
		t.Fatalf("w1: %s in the enrolment boot = %v, want masked and never started", agentUnit, a)
	}
	if out, err := w1.Exec("test", "-c", "/dev/tpmrm0"); err != nil {
		t.Fatalf("w1: no /dev/tpmrm0 with swtpm attached: %v\n%s", err, out)
	}
	// "partial" here: the kernel's driver and systemd's TPM2 support, but
	// no firmware event log (SeaBIOS, no UEFI); sealing needs the first two.
	has, _ := w1.Exec("systemd-analyze", "has-tpm2")
	sealed.pcrs, _ = w1.Exec("sh", "-c", pcrScript)
	t.Logf("w1 enrolment: systemd-analyze has-tpm2: %s\n  PCRs (enrolment boot):\n%s", strings.Join(strings.Fields(has), " "), sealed.pcrs)

	for sealedName, id := range map[string]string{sealedWG: wgCredential, sealedJoin: joinCredential} {
		// Written to /run (tmpfs) and read back: the ciphertext never
		// touches the disk, and stderr never mixes into it.
		out := "/run/corium-vmtest-sealed"
		if msg, err := w1.ExecIn(2*time.Minute, []byte(sealed.cleartext[id]),
			"systemd-creds", "encrypt", "--with-key=tpm2", "--tpm2-pcrs="+sealPCRs, "--name="+id, "-", out); err != nil {
			t.Fatalf("w1: sealing %s to its TPM: %v\n%s", id, err, w1.Secrets.Redact(t, msg))
		}
		ct := strings.Join(strings.Fields(w1.MustExec("cat", out)), "")
		w1.MustExec("rm", "-f", out)
		checkNoCleartext(t, "the ciphertext of "+id, []byte(ct), sealed.forms())
		sealed.credentials[sealedName] = ct
		t.Logf("w1 enrolment: %s sealed to w1's TPM (PCR %s) as %s, %d base64 characters", id, sealPCRs, sealedName, len(ct))
	}
	w1.Poweroff()
	sealed.took = time.Since(start)
	t.Logf("TIMING w1 enrolment boot: booted after %v, sealed and powered off after %v (wall clock)", w1.booted.Round(time.Second), sealed.took.Round(time.Second))

	w1.Seed, w1.netRemote = seed, remote
	for name := range creds {
		if name != wgCredential && name != joinCredential {
			w1.Credentials[name] = creds[name]
		}
	}
	for name, ct := range sealed.credentials {
		w1.Credentials[name] = ct
	}
	scanStart := time.Now()
	checkFileHasNoCleartext(t, "w1's disk image after enrolment, before its first boot", w1.Disk, sealed.forms())
	t.Logf("w1's disk image searched for %d forms of its secrets in %v", len(sealed.forms()), time.Since(scanStart).Round(100*time.Millisecond))
	return sealed
}

func (s *sealedSecrets) forms() [][]byte {
	var forms [][]byte
	for _, v := range s.cleartext {
		forms = append(forms, cleartextForms(v)...)
	}
	return forms
}

// checkDelivery searches what w1 was handed at this Start for its
// secrets: QEMU's arguments, the seed image and the SMBIOS credential
// files, read while they exist (WaitBooted removes them).
func (s *sealedSecrets) checkDelivery(t *testing.T, m *Machine) {
	t.Helper()
	forms := s.forms()
	checkNoCleartext(t, m.Name+": QEMU's arguments", []byte(strings.Join(m.cmd.Args, "\x00")), forms)
	if m.Seed != "" {
		checkFileHasNoCleartext(t, m.Name+": the seed image", m.Seed, forms)
	}
	files, _ := filepath.Glob(filepath.Join(m.dir, "credential.*"))
	if len(files) != len(m.Credentials) {
		t.Errorf("%s: %d SMBIOS credential files for %d credentials", m.Name, len(files), len(m.Credentials))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkNoCleartext(t, m.Name+": the SMBIOS credential "+strings.TrimPrefix(filepath.Base(f), "credential."), data, forms)
	}
}

// assertSealedSecretsUsed checks, after w1's first boot, that its secrets
// reached the agent decrypted and nowhere else: the system credentials
// hold only the ciphertext under the sealed names, the agent's unit has
// the cleartext under the names the document references.
func assertSealedSecretsUsed(t *testing.T, m *Machine, s *sealedSecrets) {
	t.Helper()
	creds := strings.Fields(m.MustExec("systemd-creds", "list", "--system", "--no-legend"))
	for _, name := range []string{wgCredential, joinCredential} {
		for _, c := range creds {
			if c == name {
				t.Errorf("%s: the system credentials hold %s: the cleartext was delivered", m.Name, name)
			}
		}
	}
	for name := range s.credentials {
		checkNoCleartext(t, m.Name+": /run/credentials/@system/"+name, []byte(m.read("/run/credentials/@system/"+name)), s.forms())
	}
	// systemd 257 removes a start-only oneshot's credentials once it has
	// exited (service.c, SERVICE_EXITED): the cleartext was in the unit's
	// /run/credentials only while the agent ran.
	if out, err := m.Exec("test", "-e", "/run/credentials/"+agentUnit); err == nil {
		t.Errorf("%s: /run/credentials/%s outlived the agent's run%s", m.Name, agentUnit, out)
	}
	s.assertOpens(t, m)
	// What the agent wrote from the decrypted values is what was sealed:
	// the key behind wg0's public key, and the join token file.
	if got := strings.TrimSpace(m.MustExec("wg", "show", "wg0", "public-key")); got != s.publicKey {
		t.Errorf("%s: wg0's public key %s, want the sealed key's %s", m.Name, got, s.publicKey)
	}
	// The agent writes the token with a newline (render's tokenFile).
	if _, err := m.ExecIn(time.Minute, []byte(s.cleartext[joinCredential]+"\n"), "cmp", "-s", "/etc/k0s/join-token", "-"); err != nil {
		t.Errorf("%s: /etc/k0s/join-token is not the join token sealed at enrolment: %v", m.Name, err)
	}
	s.comparePCRs(t, m)
}

// assertOpens decrypts each delivered ciphertext on the machine with
// systemd-creds, as the unit's LoadCredentialEncrypted= does, and compares
// it with the secret on the guest (cmp, the secret on its standard input;
// the cleartext goes to /run and is removed, never to the output).
func (s *sealedSecrets) assertOpens(t *testing.T, m *Machine) {
	t.Helper()
	for sealedName, id := range map[string]string{sealedWG: wgCredential, sealedJoin: joinCredential} {
		script := `systemd-creds decrypt --name="$1" /run/credentials/@system/"$2" /run/corium-vmtest-opened >/dev/null 2>&1 || exit 3
cmp -s /run/corium-vmtest-opened -; r=$?; rm -f /run/corium-vmtest-opened; exit $r`
		if _, err := m.ExecIn(time.Minute, []byte(s.cleartext[id]), "sh", "-c", script, "sh", id, sealedName); err != nil {
			t.Errorf("%s: %s does not decrypt to the secret sealed at enrolment (exit 3: no decryption): %v", m.Name, sealedName, err)
		}
	}
}

// pcrScript prints PCRs 1 and 7 of the SHA-256 bank from the kernel's
// sysfs (systemd-analyze pcrs refuses a "partial" TPM2).
const pcrScript = `for i in 1 7; do printf 'PCR%s=%s\n' $i "$(cat /sys/class/tpm/tpm0/pcr-sha256/$i)"; done`

// comparePCRs logs PCRs 1 and 7 against the enrolment boot's: PCR 7 must
// be the same (the secrets are sealed against it); PCR 1 measures the
// SMBIOS tables, and with them the credentials, so it differs.
func (s *sealedSecrets) comparePCRs(t *testing.T, m *Machine) {
	t.Helper()
	now, err := m.Exec("sh", "-c", pcrScript)
	if err != nil || s.pcrs == "" {
		t.Logf("%s: PCRs not read (%v): %s", m.Name, err, now)
		return
	}
	t.Logf("%s: PCRs at enrolment:\n%s  and now:\n%s", m.Name, s.pcrs, now)
	if lineWith(now, "PCR7=") != lineWith(s.pcrs, "PCR7=") {
		t.Errorf("%s: PCR 7 differs from the enrolment boot's, yet the sealed credentials decrypted", m.Name)
	}
}
