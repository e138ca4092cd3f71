package vm

import (
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/source/chain"
	"github.com/corium/corium-agent/internal/testutil/guest"
)

// The k0s ports each role guards (docs/firewall.md); c1 leaves 6443 public.
var (
	controllerGuarded = []int{179, 2380, 8080, 8132, 9443, 10249, 10250, 10256, 20244}
	workerGuarded     = []int{179, 8080, 10249, 10250, 10256, 20244}
)

// TestVMCluster boots the two-node cluster three times, after enrolling
// w1 alone: w1 has an emulated TPM2, and in one boot of its own (no seed,
// no network, the agent masked) its key and join token are sealed to it,
// so that from then on w1 is handed only their ciphertext (sealed_test.go):
//   - first boot: c1 PXE-boots by iPXE over TFTP and takes its document
//     from the kernel command line the iPXE script carries, w1
//     from its NoCloud seed through cloud-init (booted by QEMU's -kernel, it
//     is the net-boot check's negative control), both their keys (and w1 its
//     join token) from SMBIOS credentials; each comes up on NetworkManager,
//     brings wg0 up on the kernel's WireGuard, handshakes and pings the
//     other, registers its overlay address, guards its k0s ports (tested
//     from the other machine) and starts k0s after the overlay, the guard
//     and the agent;
//   - reboot: the agent is skipped, the overlay comes back from the kernel
//     module, the guard is re-applied, k0s starts again;
//   - the negative control: c1 booted with modprobe.blacklist=wireguard and
//     w1 with a damaged wg0.conf: the overlay fails and k0s never runs;
//     alongside, x1 (a TPM of its own) and x2 (none) are handed w1's
//     ciphertext: systemd fails the agent's unit with 243/CREDENTIALS.
func TestVMCluster(t *testing.T) {
	requireVM(t)
	n := newTwoNodes(t)
	c1, w1 := n.c1, n.w1
	testStart := time.Now()
	n.sealed = enrolW1(t, n)
	n.started = func() { n.sealed.checkDelivery(t, w1) }
	n.boot(nil, nil)

	t.Run("first boot", func(t *testing.T) {
		logTimings(t, c1, "config on the kernel command line", "k0scontroller.service")
		logTimings(t, w1, "config from cloud-init's NoCloud seed", "k0sworker.service")
		assertNetBooted(t, c1)
		assertNotNetBooted(t, w1)
		assertProvisioned(t, c1, chain.NameCmdline)
		assertProvisioned(t, w1, "cloud-init")
		assertSecretsFromCredentials(t, n)
		assertNetworkManager(t, c1, "underlay", underlayC1)
		assertNetworkManager(t, w1, "cloud-init ", underlayW1)
		for _, m := range []*Machine{c1, w1} {
			assertKernelWireGuard(t, m)
		}
		pingOverlay(t, c1, overlayW1)
		pingOverlay(t, w1, overlayC1)
		for _, m := range []*Machine{c1, w1} {
			assertHandshake(t, m)
			assertStatus(t, m)
			assertAgentOrder(t, m)
		}
		assertNodeAddress(t, c1, overlayC1, true)
		assertNodeAddress(t, w1, overlayW1, false)
		assertK0sStarted(t, c1, "k0scontroller.service")
		assertK0sStarted(t, w1, "k0sworker.service")
		assertK0sOrder(t, c1, "k0scontroller.service")
		assertK0sOrder(t, w1, "k0sworker.service")
		checkGuard(t, w1, guardCase{to: c1, overlay: overlayC1, underlay: underlayC1, guarded: controllerGuarded, public: []int{6443}}, underlayW1, false)
		checkGuard(t, c1, guardCase{to: w1, overlay: overlayW1, underlay: underlayW1, guarded: workerGuarded}, underlayC1, false)
	})

	t.Run("reboot", func(t *testing.T) {
		n.poweroff()
		n.boot(nil, nil)
		for _, m := range []*Machine{c1, w1} {
			k0sUnit := map[*Machine]string{c1: "k0scontroller.service", w1: "k0sworker.service"}[m]
			logTimings(t, m, "reboot", k0sUnit)
			if a := m.Show("corium-agent.service", "ConditionResult", "ExecMainStartTimestampMonotonic"); a["ConditionResult"] != "no" ||
				guest.Monotonic(a, "ExecMainStartTimestampMonotonic") != 0 {
				t.Errorf("%s: corium-agent.service on the reboot = %v, want skipped by its condition", m.Name, a)
			}
			if fw := m.Show("corium-firewall.service", "Result", "ActiveState"); fw["Result"] != "success" || fw["ActiveState"] != "active" {
				t.Errorf("%s: corium-firewall.service on the reboot = %v, want run and active", m.Name, fw)
			}
			out, err := m.Exec("corium-agent", "firewall", "show")
			table := lineWith(out, "table:")
			if err != nil || !strings.Contains(table, "current") {
				t.Errorf("%s: corium-agent firewall show after the reboot: %v\n%s", m.Name, err, out)
			}
			t.Logf("%s: corium-agent firewall show: %s; %s", m.Name, table, lineWith(out, "guarded:"))
			assertKernelWireGuard(t, m)
			assertK0sStarted(t, m, k0sUnit)
			assertK0sOrder(t, m, k0sUnit)
			if got := m.standIn().Installs(); got != 1 {
				t.Errorf("%s: k0s install ran %d times over two boots, want 1", m.Name, got)
			}
		}
		pingOverlay(t, c1, overlayW1)
		pingOverlay(t, w1, overlayC1)
		for _, m := range []*Machine{c1, w1} {
			assertHandshake(t, m)
			assertStatus(t, m)
		}
		checkGuard(t, w1, guardCase{to: c1, overlay: overlayC1, underlay: underlayC1, guarded: controllerGuarded, public: []int{6443}}, underlayW1, true)
		checkGuard(t, c1, guardCase{to: w1, overlay: overlayW1, underlay: underlayW1, guarded: workerGuarded}, underlayC1, true)
	})

	t.Run("negative control: overlay down", func(t *testing.T) {
		damageWireGuardConf(t, w1)
		n.poweroff()
		// The sealed secrets' controls boot alongside: w1's ciphertext
		// on another TPM (x1), on no TPM (x2), and on a copy of w1's (x3,
		// which must decrypt it). They boot faster than the pair (no
		// cloud-init, no network) and are checked and powered off first,
		// leaving the cores to it.
		x1, x2, x3 := newSealedStrangers(t, n.secrets, n.sealed)
		roundStart := time.Now()
		for _, x := range []*Machine{x1, x2, x3} {
			x.Start()
		}
		n.start([]string{"modprobe.blacklist=wireguard"}, nil)
		for _, x := range []*Machine{x1, x2, x3} {
			x.WaitBooted()
		}
		assertSealedRefused(t, x1, true)
		assertSealedRefused(t, x2, false)
		assertSealedOpened(t, x3, n.sealed)
		for _, x := range []*Machine{x1, x2, x3} {
			x.Poweroff()
		}
		t.Logf("TIMING the sealed controls x1, x2, x3: %v (wall clock, their QEMU start to their poweroff, alongside the pair's boot)", time.Since(roundStart).Round(time.Second))
		n.wait()
		defer func() {
			t.Logf("TIMING negative-control round: %v (wall clock, first QEMU start to the last check)", time.Since(roundStart).Round(time.Second))
		}()
		logTimings(t, c1, "modprobe.blacklist=wireguard", "k0scontroller.service")
		logTimings(t, w1, "damaged wg0.conf", "k0sworker.service")
		if c1.hasModule("wireguard") {
			t.Errorf("c1: wireguard is loaded despite modprobe.blacklist=wireguard; the control proves nothing")
		}
		assertOverlayKeepsK0sDown(t, c1, "k0scontroller.service")
		assertOverlayKeepsK0sDown(t, w1, "k0sworker.service")
	})
	n.poweroff()
	// The search's positive control, and what sealing does not protect: a
	// provisioned node's disk holds the join token in /etc/k0s/join-token.
	if found, err := fileHasCleartext(w1.Disk, cleartextForms(n.keys.joinToken)); err != nil || found < 0 {
		t.Errorf("w1's provisioned disk: the search found no join token (%d, %v); the search before the first boot proves nothing", found, err)
	}
	t.Logf("TIMING TestVMCluster: %v (wall clock, enrolment to the last poweroff)", time.Since(testStart).Round(time.Second))
}
