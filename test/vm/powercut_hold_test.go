package vm

import (
	"errors"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The points of the agent's first boot where TestVMPowerCut cuts the power.
// A boot is asked for one with vmtest.hold=POINT on its kernel command line
// (for that boot only: a cut boot leaves no trace of the request on its
// disk); what holds there prints holdLine(POINT) on the console and blocks,
// so the moment of the cut is certain, then the test kills QEMU.
const (
	// holdWG: the agent has written the WireGuard files and the units and
	// reloaded systemd; wg-quick@wg0 is held before its ExecStart, so the
	// interface is not up (a drop-in of the test's, powerCutHoldWG).
	holdWG = "wg"
	// holdInstalling: `k0s install` mid-way, its unit written and not
	// enabled (the stand-in, test/boot/k0sstandin/hold.go).
	holdInstalling = "installing"
	// holdInstalled: the install complete and synced, as the agent syncs it
	// after the install, the agent not yet at its records and marker (the
	// stand-in, before it exits).
	holdInstalled = "installed"
	// holdMarker: the agent's run ended (its marker written, its run record
	// removed, k0s queued); k0s is held before it starts (a unit of the
	// test's ordered between the two, powerCutHoldK0s).
	holdMarker = "marker"
)

// holdLine is what a hold prints on the console; the stand-in prints the
// same words (it links no test code).
func holdLine(point string) string { return "corium-vmtest HOLD " + point + ":" }

// holdArg asks a boot to hold at point.
func holdArg(point string) string { return "vmtest.hold=" + point }

// powerCutHoldWG holds wg-quick@wg0 before the interface is created, on a
// boot that asks for it; on any other boot it does nothing. It is under
// /usr/lib, away from the agent's own drop-in in /etc, and oneshot units
// have no start timeout, so it holds until the cut.
const powerCutHoldWG = `# VM test equipment, not part of the Corium image (TestVMPowerCut).
[Service]
ExecStartPre=/bin/sh -c 'grep -qw ` + "vmtest.hold=" + holdWG + ` /proc/cmdline || exit 0; echo "corium-vmtest HOLD ` + holdWG + `: wg-quick@wg0 held before the interface is up" >/dev/console; exec sleep infinity'
`

// powerCutHoldK0s sits between the agent's unit and k0s's on a boot that
// asks for it: after the agent's run has ended (After=) and before k0s's
// queued start can run (Before=: the start job waits for this unit's).
const powerCutHoldK0s = `# VM test equipment, not part of the Corium image (TestVMPowerCut).
[Unit]
Description=VM test equipment: k0s held after the agent for a power cut
ConditionKernelCommandLine=` + "vmtest.hold=" + holdMarker + `
After=corium-agent.service
Before=k0scontroller.service k0sworker.service

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'echo "corium-vmtest HOLD ` + holdMarker + `: the agent is done, k0s held before it starts" >/dev/console; exec sleep infinity'

[Install]
WantedBy=multi-user.target
`

// powerCutNoWriteback turns off the guest kernel's periodic writeback, so
// that a cut loses every page nobody synced: what survives is what was
// synced, not what happened to be flushed by the flusher's 30 s expiry in
// the seconds the test spends at a hold. Without it a missing sync (the
// agent's after `k0s install`, whose unit k0s writes unsynced) shows only
// when the test is quick; with it, every time. ext4 still commits its
// journal every 5 s: a file created unsynced survives as a name and no
// bytes, as it would on a busy node.
const powerCutNoWriteback = `# VM test equipment, not part of the Corium image (TestVMPowerCut).
vm.dirty_writeback_centisecs = 0
vm.dirty_expire_centisecs = 360000
`

// powerCutEquipment puts the holds on a disk; without vmtest.hold= on the
// kernel command line they change nothing. The writeback setting is on
// every boot of the test's machines.
func powerCutEquipment(s *staging) {
	s.WriteFile("/usr/lib/sysctl.d/90-corium-vmtest-no-writeback.conf", []byte(powerCutNoWriteback), 0o644)
	s.WriteFile("/usr/lib/systemd/system/wg-quick@wg0.service.d/50-corium-vmtest-hold.conf", []byte(powerCutHoldWG), 0o644)
	s.WriteFile("/usr/lib/systemd/system/corium-vmtest-hold-k0s.service", []byte(powerCutHoldK0s), 0o644)
	s.Symlink("../corium-vmtest-hold-k0s.service", "/usr/lib/systemd/system/multi-user.target.wants/corium-vmtest-hold-k0s.service")
}

// isolate gives each machine a NIC on no network: its frames go to a socket
// the test reads and drops. The machines of TestVMPowerCut share one
// document, addresses included, so they must not meet; each still has the
// underlay and the default route its document's facts are read from.
func isolate(t *testing.T, ms ...*Machine) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "sink.sock")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatalf("the machines' network sink: %v", err)
	}
	t.Cleanup(func() { conn.Close() })
	go func() {
		buf := make([]byte, 65536)
		for {
			if _, _, err := conn.ReadFrom(buf); errors.Is(err, net.ErrClosed) {
				return
			}
		}
	}()
	for _, m := range ms {
		m.netRemote = path
	}
}

// waitHold waits for the hold's line on the console QEMU writes, and
// returns how long after QEMU's start it came.
func (m *Machine) waitHold(point string) time.Duration {
	m.t.Helper()
	deadline := m.start.Add(bootTimeout)
	for {
		console := m.consoleText()
		if strings.Contains(console, holdLine(point)) {
			break
		}
		if past := pastHold(console, point); past != "" {
			m.t.Fatalf("%s boot %d: the boot went past the hold at %s (%q) without it\n%s", m.Name, m.Boots, point, past, m.consoleTail())
		}
		select {
		case <-m.exited:
			m.t.Fatalf("%s: QEMU exited before the hold at %s\n%s", m.Name, point, m.consoleTail())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			m.t.Fatalf("%s: no hold at %s within %v\n%s", m.Name, point, bootTimeout, m.consoleTail())
		}
	}
	took := time.Since(m.start)
	m.t.Logf("%s boot %d: held at %s after %v (wall clock from QEMU's start)", m.Name, m.Boots, point, took.Round(100*time.Millisecond))
	return took
}

// attach connects to guestd on a machine whose boot is held (it never
// finishes, so WaitBooted would wait for good), and reads its boot id.
func (m *Machine) attach() {
	m.t.Helper()
	ch, err := dialChannel(m.channelPath(), m.exited)
	if err != nil {
		m.t.Fatalf("%s: %v\n%s", m.Name, err, m.consoleTail())
	}
	m.ch = ch
	m.BootID = strings.ReplaceAll(strings.TrimSpace(m.MustExec("cat", "/proc/sys/kernel/random/boot_id")), "-", "")
}

// cut is the power cut: QEMU killed, no shutdown, nothing synced.
//
// What survives is what QEMU had written to the disk's file. The disk is
// cache=unsafe (writeback through the host's page cache, the guest's
// flushes ignored): the host keeps the pages of a file whose writer was
// killed, so every write the guest had sent is kept, flushed or not, and
// what is lost is what the guest had not sent: its own page cache and the
// ext4 journal's open transaction. That is the guest's power cut. It is a
// mild one: a real disk's volatile cache can also lose or reorder writes
// that were sent and not flushed; only a host crash would do that here, so
// the setting stays (it keeps every other boot fast).
func (m *Machine) cut() {
	m.t.Helper()
	m.kill()
	m.down()
	m.t.Logf("%s boot %d: power cut (QEMU killed)", m.Name, m.Boots)
}

// pastHold is the console line that shows a boot went past the point
// without holding ("" for none): the agent's unit ended, for the holds in
// its run, or k0s started, for the one after it. systemd's status lines
// colour the unit's name, so the words are looked for apart.
func pastHold(console, point string) string {
	unit, words := "corium-agent.service", []string{"Finished", "Failed"}
	if point == holdMarker {
		unit, words = "k0scontroller.service", []string{"Started"}
	}
	for _, line := range strings.Split(console, "\n") {
		if !strings.Contains(line, unit) {
			continue
		}
		for _, w := range words {
			if strings.Contains(line, w) {
				return strings.TrimSpace(line)
			}
		}
	}
	return ""
}
