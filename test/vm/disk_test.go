package vm

import (
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/test/vm/wire"
)

// guestdUnit starts the command channel's guest end as early as the root
// file system allows, so a boot that stalls can still be asked why. It is
// test equipment: nothing of the image orders itself against it.
const guestdUnit = `# VM test equipment, not part of the Corium image: the test's command channel.
[Unit]
Description=VM test command channel
DefaultDependencies=no
After=systemd-journald.socket

[Service]
ExecStart=/usr/local/lib/corium-vmtest/guestd /dev/virtio-ports/` + wire.PortName + `
Restart=always

[Install]
WantedBy=sysinit.target
`

// modulesProbe is where modulesProbeUnit records, each boot, the modules
// loaded right after systemd-modules-load, one name a line.
const modulesProbe = "/run/corium-vmtest/modules-after-modules-load"

// modulesProbeUnit samples /proc/modules as soon as systemd-modules-load
// has run and before anything else that could load the image's modules has
// started: NetworkManager, cloud-init and the agent all run after it, and
// looking the wireguard generic-netlink family up (the agent's wgctrl does)
// or programming the guard makes the kernel load them on demand. Only a
// sample taken before them can tell that the modules-load.d entries loaded
// them. Test equipment, not part of the image.
const modulesProbeUnit = `# VM test equipment, not part of the Corium image.
[Unit]
Description=VM test probe: the modules loaded after systemd-modules-load
DefaultDependencies=no
After=systemd-modules-load.service
Before=sysinit.target cloud-init-local.service NetworkManager.service corium-agent.service

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/bin/sh -c 'mkdir -p /run/corium-vmtest; cut -d" " -f1 /proc/modules >` + modulesProbe + `'

[Install]
WantedBy=sysinit.target
`

// newDisk makes a VM's disk: the cached guest, what the Containerfile puts
// on the image (image/, the agent, cloud-init turned on, the agent's units
// enabled), the k0s stand-in where the agent finds k0s, the test's command
// channel, a machine id of its own, and whatever configure adds for this
// machine.
func newDisk(t testing.TB, name string, configure func(*staging)) string {
	t.Helper()
	img, bins := baseImage(t), built(t)
	unlock := img.readLock(t)
	defer unlock()
	s := newStaging(t, img)

	s.CopyTree(filepath.Join(repoRoot, "image"), "/")
	s.CopyFile(bins.Agent, "/usr/bin/corium-agent", 0o755)
	// As the Containerfile turns cloud-init on and enables the agent's units.
	s.Symlink("../cloud-init.target", "/usr/lib/systemd/system/default.target.wants/cloud-init.target")
	host.Run(t, "systemctl", "--root="+s.Root, "enable", "corium-agent.service", "corium-firewall.service")

	// The k0s STAND-IN, not k0s: it refuses what k0s refuses and records
	// how it was installed and started (test/boot/k0sstandin).
	s.CopyFile(bins.StandIn, "/usr/local/bin/k0s", 0o755)

	s.CopyFile(bins.Guestd, "/usr/local/lib/corium-vmtest/guestd", 0o755)
	s.WriteFile("/etc/systemd/system/corium-vmtest-guestd.service", []byte(guestdUnit), 0o644)
	s.Symlink("../corium-vmtest-guestd.service", "/etc/systemd/system/sysinit.target.wants/corium-vmtest-guestd.service")
	s.WriteFile("/etc/systemd/system/corium-vmtest-modules-probe.service", []byte(modulesProbeUnit), 0o644)
	s.Symlink("../corium-vmtest-modules-probe.service", "/etc/systemd/system/sysinit.target.wants/corium-vmtest-modules-probe.service")

	// The tree's /var/log/journal keeps the journal across the machine's
	// boots; the machine id names its directory there.
	s.WriteFile("/etc/machine-id", []byte(fixture.RandHex(32)+"\n"), 0o444)

	configure(s)
	disk := filepath.Join(t.TempDir(), name+".raw")
	s.MakeDisk(disk)
	return disk
}
