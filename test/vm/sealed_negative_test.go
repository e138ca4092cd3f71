package vm

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/guest"
	"github.com/corium/corium-agent/internal/testutil/host"
)

// newSealedStrangers are the sealed secrets' negative controls: fresh
// disks like w1's (the drop-in, no seed, no network link: the agent never
// gets far enough to want one), each handed w1's ciphertext. x1 has a TPM
// of its own, x2 none: neither may decrypt it. x3 is x1 broken on purpose,
// its TPM a copy of w1's state (w1 must be down): it decrypts, which shows
// that what x1 and x2 refuse is the TPM, not the disk, the drop-in or the
// delivery.
func newSealedStrangers(t *testing.T, secrets *Secrets, sealed *sealedSecrets) (x1, x2, x3 *Machine) {
	t.Helper()
	x1 = newMachine(t, "x1", newDisk(t, "x1", withSealedDropIn), "52:54:00:c0:00:11", secrets)
	x1.addTPM(filepath.Join(t.TempDir(), "x1-tpm"))
	x2 = newMachine(t, "x2", newDisk(t, "x2", withSealedDropIn), "52:54:00:c0:00:12", secrets)
	x3 = newMachine(t, "x3", newDisk(t, "x3", withSealedDropIn), "52:54:00:c0:00:13", secrets)
	copied := filepath.Join(t.TempDir(), "x3-tpm")
	host.Run(t, "cp", "-a", sealed.tpmState, copied)
	x3.addTPM(copied)
	for _, x := range []*Machine{x1, x2, x3} {
		for name, ct := range sealed.credentials {
			x.Credentials[name] = ct
		}
		// No seed: cloud-init would spend four minutes asking metadata
		// services that are not there.
		x.Cmdline = []string{"cloud-init=disabled"}
	}
	return x1, x2, x3
}

// assertSealedOpened checks x3, the control broken on purpose: with a copy
// of w1's TPM the same ciphertext decrypts, the agent runs (and finds no
// configuration: no seed), and its unit holds the secrets.
func assertSealedOpened(t *testing.T, m *Machine, sealed *sealedSecrets) {
	t.Helper()
	a := m.Show(agentUnit, "ActiveState", "Result", "ExecMainStatus")
	if a["ActiveState"] != "active" || a["Result"] != "success" {
		t.Errorf("%s: %s = %v with a copy of w1's TPM, want run and active: the refusals of x1 and x2 may not be the TPM's", m.Name, agentUnit, a)
	}
	// Delivered, so the unit's success is their decryption (a missing
	// relative source would be skipped); and they open to w1's secrets.
	creds := m.MustExec("systemd-creds", "list", "--system", "--no-legend")
	for name := range sealed.credentials {
		if !strings.Contains(creds, name) {
			t.Errorf("%s: %s was not delivered; the unit's success proves nothing", m.Name, name)
		}
	}
	sealed.assertOpens(t, m)
	text, _ := m.Exec("corium-agent", "status")
	m.Secrets.Logf(t, "%s (a copy of w1's TPM): %s %v; corium-agent status: %s", m.Name, agentUnit, a, firstLine(text))
}

// assertSealedRefused checks a machine handed ciphertext it cannot
// decrypt: systemd fails corium-agent.service while setting up its
// credentials (243/CREDENTIALS), so the agent never ran, k0s was never
// installed or started, and status says the unit failed before the agent
// ran and which credentials it could not read.
func assertSealedRefused(t *testing.T, m *Machine, tpm bool) {
	t.Helper()
	if _, err := m.Exec("test", "-c", "/dev/tpmrm0"); (err == nil) != tpm {
		t.Errorf("%s: /dev/tpmrm0 present = %v, want %v", m.Name, err == nil, tpm)
	}
	a := m.Show(agentUnit, "ActiveState", "Result", "ExecMainCode", "ExecMainStatus", "ConditionResult")
	if a["ActiveState"] != "failed" || a["Result"] != "exit-code" || a["ExecMainStatus"] != "243" || a["ConditionResult"] != "yes" {
		t.Errorf("%s: %s = %v, want failed with exit-code 243 (CREDENTIALS)", m.Name, agentUnit, a)
	}
	if out, err := m.Exec("test", "-e", "/run/corium/status.json"); err == nil {
		t.Errorf("%s: the agent wrote its status: it ran with a credential it should not have\n%s", m.Name, out)
	}
	for _, unit := range []string{"k0sworker.service", "k0scontroller.service"} {
		k := m.Show(unit, "LoadState", "ExecMainStartTimestampMonotonic")
		if k["LoadState"] != "not-found" || guest.Monotonic(k, "ExecMainStartTimestampMonotonic") != 0 {
			t.Errorf("%s: %s = %v, want no such unit", m.Name, unit, k)
		}
	}
	if n := m.standIn().Installs(); n != 0 || m.standInStartedThisBoot() {
		t.Errorf("%s: the k0s stand-in was installed %d times (started this boot: %v), want never", m.Name, n, m.standInStartedThisBoot())
	}
	text, _ := m.Exec("corium-agent", "status")
	verdict := firstLine(text)
	for _, want := range []string{"failed: ", agentUnit, "243/CREDENTIALS", "before the agent ran", wgCredential, joinCredential} {
		if !strings.Contains(verdict, want) && !(want != "failed: " && strings.Contains(text, want)) {
			t.Errorf("%s: corium-agent status lacks %q:\n%s", m.Name, want, m.Secrets.Redact(t, text))
		}
	}
	if !strings.HasPrefix(verdict, "failed: ") {
		t.Errorf("%s: corium-agent status verdict %q, want failed", m.Name, verdict)
	}
	var why []string
	for _, e := range m.journal("_SYSTEMD_UNIT=" + agentUnit) {
		why = append(why, e.Message)
	}
	online := guest.Monotonic(m.Show("network-online.target", "ActiveEnterTimestampMonotonic"), "ActiveEnterTimestampMonotonic")
	m.Secrets.Logf(t, "%s: %s %v; network-online %s\n  journal: %s\n  corium-agent status:\n%s", m.Name, agentUnit, a, seconds(online), strings.Join(why, " | "), text)
}
