package vm

import (
	"slices"
	"strings"
	"testing"
	"time"

	"golang.zx2c4.com/wireguard/wgctrl/wgtypes"

	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/guest"
)

// powerCutUnit is the k0s unit of the power cut's document.
const powerCutUnit = "k0scontroller.service"

// powerCutConfig is the power cut's document, /etc/corium/config.yaml on
// every machine of the test: c1's shape (a controller+worker on a WireGuard
// overlay, its key from a credential), node.name pinned so the hostname is
// the same on every machine. Its peer answers nothing: nothing of the
// agent's run waits for a handshake.
func powerCutConfig(peer wgtypes.Key) string { return controllerNamed("powercut", peer) }

// TestVMPowerCut cuts the power (QEMU killed: no shutdown, no sync) of a
// first boot at four points of the agent's run, each held for certain and
// seen on the console (powercut_hold_test.go), and boots again.
//
// Two machines of one disk staging and one document, each on a network of
// its own (the same addresses do no harm), in four rounds of at most two
// boots, six boots in all:
//   - p1 chains three cuts, one per boot: (1) the WireGuard files written,
//     the interface not up; (2) `k0s install` mid-way, its unit written and
//     not enabled; (3) the install done, before the agent's records and
//     marker; then (4) a boot with no hold, which must converge. Each boot
//     after a cut must run the agent again (no marker) and say the run
//     before did not finish, which the boot before only shows if it is cut
//     too, so the chain proves each cut's next boot, not only the last.
//   - p2 is the reference: a clean first boot held only once the agent's
//     run has ended, before k0s starts, its files read there; then its
//     power is cut right after the marker, and its next boot must skip the
//     agent, start k0s and keep every file.
//
// "k0s starts once": its unit starts in exactly one boot of each machine
// (the stand-in's start record), never in a cut one. A cut install does not
// count as one that took effect: every run that reaches the install step
// runs it once, with --force exactly when an earlier cut run left the unit
// (k0s refuses an existing unit without it), and the one in effect is the
// last, whose unit is byte-identical to the reference's.
func TestVMPowerCut(t *testing.T) {
	requireVM(t)
	began := time.Now()
	secrets := &Secrets{}
	key, peer := fixture.GenKey(t), fixture.GenKey(t)
	secrets.Add(key.String(), peer.String())
	doc := powerCutConfig(peer)
	disk := func(s *staging) {
		noMetadata(macC1, underlayC1)(s)
		s.WriteFile("/etc/corium/config.yaml", []byte(doc), 0o600)
		powerCutEquipment(s)
	}
	newCutMachine := func(name string) *Machine {
		m := newMachine(t, name, newDisk(t, name, disk), macC1, secrets)
		m.Credentials[wgCredential] = key.String()
		return m
	}
	p1, p2 := newCutMachine("p1"), newCutMachine("p2")
	isolate(t, p1, p2)
	var boots []string // p1's boot ids, in order

	// Round 1: p1 cut (1); p2 the reference, then cut (4).
	p1.Start(holdArg(holdWG))
	p2.Start(holdArg(holdMarker))
	p1.waitHold(holdWG)
	p1.attach()
	boots = append(boots, p1.BootID)
	assertAgentRunning(t, p1, false)
	if _, err := p1.Exec("test", "-s", "/etc/wireguard/wg0.conf"); err != nil {
		t.Errorf("p1: held at %s without /etc/wireguard/wg0.conf: the hold is not after the WireGuard files", holdWG)
	}
	if out, err := p1.Exec("ip", "link", "show", "wg0"); err == nil {
		t.Errorf("p1: wg0 is up at the hold %s, which must come before the interface:\n%s", holdWG, out)
	}
	p1.cut()

	p2.waitHold(holdMarker)
	p2.attach()
	if got := strings.TrimSpace(p2.MustExec("cat", "/proc/sys/vm/dirty_writeback_centisecs")); got != "0" {
		t.Errorf("p2: vm.dirty_writeback_centisecs = %s, want 0 (powerCutNoWriteback): a cut would keep pages written back by chance", got)
	}
	refStatus := p2.readStatus()
	if refStatus.Outcome != status.Provisioned || refStatus.Provenance == nil || refStatus.Provenance.Source != chain.NameFile || refStatus.Unfinished != nil {
		t.Fatalf("p2: the reference's run: outcome %q, provenance %+v, unfinished %+v; want provisioned from %s, nothing unfinished",
			refStatus.Outcome, refStatus.Provenance, refStatus.Unfinished, chain.NameFile)
	}
	if _, err := p2.Exec("test", "-e", status.MarkerPath); err != nil {
		t.Errorf("p2: held at %s without the marker", holdMarker)
	}
	if _, err := p2.Exec("test", "-e", status.RunPath); err == nil {
		t.Errorf("p2: %s is still there after the run ended", status.RunPath)
	}
	if s := p2.standIn().StartBoots(); len(s) != 0 {
		t.Errorf("p2: k0s started (%v) before the hold %s, which must come before it", s, holdMarker)
	}
	refPaths := ownedPaths(refStatus, powerCutUnit)
	ref := p2.readOwned(refPaths)
	t.Logf("the reference (p2, a clean first boot): %d paths the agent owns (and the k0s unit), in %d directories", len(ref.Files), len(ref.Dirs))
	for _, p := range refPaths {
		t.Logf("  %s: %s", p, short(ref.Files[p]))
	}
	p2.cut()

	// Round 2: p1 cut (2); p2's boot after cut (4).
	p1.Start(holdArg(holdInstalling))
	p2.Start()
	p1.waitHold(holdInstalling)
	p1.attach()
	boots = append(boots, p1.BootID)
	assertAgentRunning(t, p1, true)
	if _, err := p1.Exec("test", "-e", "/etc/systemd/system/"+powerCutUnit); err != nil {
		t.Errorf("p1: held at %s without the k0s unit written", holdInstalling)
	}
	if _, err := p1.Exec("test", "-L", "/etc/systemd/system/multi-user.target.wants/"+powerCutUnit); err == nil {
		t.Errorf("p1: held at %s with the k0s unit enabled already: not mid-install", holdInstalling)
	}
	p1.cut()

	p2.WaitBooted()
	logTimings(t, p2, "after the cut right after the marker", powerCutUnit)
	if a := p2.Show("corium-agent.service", "ConditionResult", "ExecMainStartTimestampMonotonic"); a["ConditionResult"] != "no" ||
		guest.Monotonic(a, "ExecMainStartTimestampMonotonic") != 0 {
		t.Errorf("p2: corium-agent.service after the cut past the marker = %v, want skipped by its condition", a)
	}
	assertK0sStarted(t, p2, powerCutUnit)
	assertKernelWireGuard(t, p2)
	assertStartedOnlyIn(t, p2, p2.BootID)
	assertInstallCalls(t, p2, 1)
	assertSameOwned(t, p2, ref, p2.readOwned(refPaths))
	logStatus(t, p2)
	p2.Poweroff()

	// Round 3: p1 cut (3).
	p1.Start(holdArg(holdInstalled))
	p1.waitHold(holdInstalled)
	p1.attach()
	boots = append(boots, p1.BootID)
	assertAgentRunning(t, p1, true)
	if _, err := p1.Exec("test", "-L", "/etc/systemd/system/multi-user.target.wants/"+powerCutUnit); err != nil {
		t.Errorf("p1: held at %s without the k0s unit enabled: the install is not done", holdInstalled)
	}
	if _, err := p1.Exec("test", "-e", status.MarkerPath); err == nil {
		t.Errorf("p1: held at %s with the marker written: the hold is not before it", holdInstalled)
	}
	p1.cut()

	// Round 4: p1 boots with no hold and converges.
	p1.Start()
	p1.WaitBooted()
	boots = append(boots, p1.BootID)
	logTimings(t, p1, "after three cuts", powerCutUnit)
	if a := p1.Show("corium-agent.service", "Result", "ActiveState", "ConditionResult"); a["Result"] != "success" || a["ActiveState"] != "active" || a["ConditionResult"] != "yes" {
		t.Errorf("p1: corium-agent.service after three cuts = %v, want run again (no marker) and succeeded", a)
	}
	st := p1.readStatus()
	if st.Outcome != status.Provisioned || st.Provenance == nil || st.Provenance.Source != chain.NameFile {
		t.Errorf("p1: status outcome %q, provenance %+v; want provisioned from %s", st.Outcome, st.Provenance, chain.NameFile)
	}
	if _, err := p1.Exec("test", "-e", status.MarkerPath); err != nil {
		t.Errorf("p1: no marker after the run that converged")
	}
	if u := st.Unfinished; u == nil || u.Command != "apply" {
		t.Errorf("p1: status.json unfinished = %+v after a cut run, want the earlier apply", u)
	}
	text, _ := p1.Exec("corium-agent", "status")
	if before := lineWith(text, "before it:"); !strings.Contains(before, "apply started at") || !strings.Contains(before, "did not finish") {
		t.Errorf("p1: corium-agent status does not say the run before did not finish:\n%s", secrets.Redact(t, text))
	} else {
		t.Logf("p1: corium-agent status: %s", before)
	}
	assertK0sStarted(t, p1, powerCutUnit)
	assertKernelWireGuard(t, p1)
	assertStartedOnlyIn(t, p1, p1.BootID)
	calls := assertInstallCalls(t, p1, 3)
	if want := boots[1:]; len(calls) == 3 && !slices.Equal(callBoots(calls), want) {
		t.Errorf("p1: k0s install ran in boots %v, want one in each of the boots that reached it, %v", callBoots(calls), want)
	}
	if len(calls) == 3 && !calls[2].UnitPresent {
		t.Errorf("p1: the install after cut (3) found no unit, which cut (3) had synced")
	}
	got := p1.readOwned(ownedPaths(st, powerCutUnit))
	assertSameOwned(t, p1, ref, got)
	if t.Failed() {
		t.FailNow()
	}

	// The negative control: the comparison names a file the agent owns
	// truncated behind its back, and a temp file left beside another.
	p1.MustExec("truncate", "-s", "10", status.AppliedPath)
	p1.MustExec("touch", "/etc/k0s/.k0s.yaml.tmp-42")
	broken := strings.Join(compareOwned(ref, p1.readOwned(ownedPaths(st, powerCutUnit))), "\n")
	for _, want := range []string{status.AppliedPath + ": file mode 600, 10 bytes", "/etc/k0s/.k0s.yaml.tmp-42: a temp file of a cut write is left"} {
		if !strings.Contains(broken, want) {
			t.Errorf("negative control: the comparison does not name %q:\n%s", want, broken)
		}
	}
	t.Logf("negative control: the comparison names the breaks:\n%s", broken)
	p1.Poweroff()
	t.Logf("POWERCUT %d boots (p1 %d, p2 %d) in 4 rounds, %v in all", p1.Boots+p2.Boots, p1.Boots, p2.Boots, time.Since(began).Round(time.Second))
}

// assertAgentRunning checks, at a hold inside the agent's run, that the
// agent is the one running (no marker: the boot ran it again) and whether
// it logged that the run before it did not finish.
func assertAgentRunning(t *testing.T, m *Machine, afterCut bool) {
	t.Helper()
	if a := m.Show("corium-agent.service", "ActiveState", "ConditionResult"); a["ActiveState"] != "activating" || a["ConditionResult"] != "yes" {
		t.Errorf("%s boot %d: corium-agent.service = %v at the hold, want it running", m.Name, m.Boots, a)
	}
	log, _ := m.Exec("journalctl", "-b", "0", "-u", "corium-agent.service", "-o", "cat", "--no-pager")
	said := lineWith(log, "an earlier run did not finish")
	switch {
	case afterCut && said == "":
		t.Errorf("%s boot %d: the agent did not log that the run before did not finish:\n%s", m.Name, m.Boots, m.Secrets.Redact(t, log))
	case !afterCut && said != "":
		t.Errorf("%s boot %d: a first boot's agent says an earlier run did not finish: %s", m.Name, m.Boots, said)
	case said != "":
		t.Logf("%s boot %d: the agent: %s", m.Name, m.Boots, said)
	}
}

// assertStartedOnlyIn checks that k0s's unit started in that boot and no
// other of the machine's.
func assertStartedOnlyIn(t *testing.T, m *Machine, boot string) {
	t.Helper()
	if got := m.standIn().StartBoots(); !slices.Equal(got, []string{boot}) {
		t.Errorf("%s: k0s started in boots %v over %d boots, want once, in this boot %s", m.Name, got, m.Boots, boot)
	}
}

// assertInstallCalls checks the number of `k0s install` calls and that
// each had --force exactly when the unit was there.
func assertInstallCalls(t *testing.T, m *Machine, want int) []guest.InstallCall {
	t.Helper()
	calls := m.standIn().InstallCalls()
	if len(calls) != want {
		t.Errorf("%s: k0s install ran %d times, want %d", m.Name, len(calls), want)
	}
	for i, c := range calls {
		t.Logf("%s: k0s install %d in boot %s: unit %s, --force %t", m.Name, i+1, c.Boot, map[bool]string{true: "present", false: "absent"}[c.UnitPresent], c.Force)
		if c.Force != c.UnitPresent {
			t.Errorf("%s: k0s install %d: --force %t with the unit present %t; the agent must force exactly over a cut run's unit", m.Name, i+1, c.Force, c.UnitPresent)
		}
	}
	return calls
}

func callBoots(calls []guest.InstallCall) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Boot)
	}
	return out
}

// assertSameOwned checks the machine's files against the reference's.
func assertSameOwned(t *testing.T, m *Machine, ref, got owned) {
	t.Helper()
	if d := compareOwned(ref, got); len(d) != 0 {
		t.Errorf("%s: the files the agent owns differ from the clean first boot's:\n%s", m.Name, strings.Join(d, "\n"))
		return
	}
	t.Logf("%s: every file the agent owns (%d, and the entries of their %d directories) is byte-identical to the clean first boot's", m.Name, len(got.Files), len(got.Dirs))
}

// logStatus prints corium-agent status's first lines.
func logStatus(t *testing.T, m *Machine) {
	t.Helper()
	text, _ := m.Exec("corium-agent", "status")
	lines := strings.Split(m.Secrets.Redact(t, text), "\n")
	if len(lines) > 6 {
		lines = lines[:6]
	}
	t.Logf("%s: corium-agent status:\n%s", m.Name, strings.Join(lines, "\n"))
}
