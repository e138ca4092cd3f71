package vm

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source/chain"
)

// TestVMFileAndImageDefault boots two more fresh machines, together, for the
// other two ways in: f1 with /etc/corium/config.yaml on its disk, d1 with a
// default baked into the image at /usr/share/corium/config.yaml. Neither
// configures an overlay, so they also show what loads the kernel's
// WireGuard: on d1 the image's modules-load.d entry loads it by itself
// (creating a link would load it on demand and prove nothing); f1 has the
// entry masked, the control: without it the module is not there when
// systemd-modules-load is done. Later in the boot both have it: a
// generic-netlink lookup of the wireguard family loads it on demand, and
// the agent's wgctrl makes one on every node; hence the early sample.
//
// A third machine boots with them, n1, the control of TestVMDayTwo's late
// secret server: its join token's server never comes up, and its boot ends
// after a short waitFor with k0s not started and status naming the URL
// (without the userinfo and query it has) and the attempts.
func TestVMFileAndImageDefault(t *testing.T) {
	requireVM(t)
	secrets := &Secrets{}
	f1 := newMachine(t, "f1", newDisk(t, "f1", func(s *staging) {
		noMetadata(macF1, underlayF1)(s)
		s.WriteFile("/etc/corium/config.yaml", []byte(fileConfig()), 0o600)
		s.Symlink("/dev/null", "/etc/modules-load.d/corium-wireguard.conf")
	}), macF1, secrets)
	d1 := newMachine(t, "d1", newDisk(t, "d1", func(s *staging) {
		noMetadata(macD1, underlayD1)(s)
		s.WriteFile("/usr/share/corium/config.yaml", []byte(defaultConfig()), 0o644)
	}), macD1, secrets)
	link(f1, d1)
	never := newNeverUp(t, secrets)
	n1 := never.m
	f1.Start()
	d1.Start()
	n1.Start()
	never.breakOnPurpose(t)
	f1.WaitBooted()
	d1.WaitBooted()
	n1.WaitBooted()

	for _, c := range []struct {
		m              *Machine
		source, way    string
		addr           string
		moduleExpected bool
	}{
		{f1, chain.NameFile, "/etc/corium/config.yaml, modules-load.d entry masked", underlayF1, false},
		{d1, chain.NameDefault, "the image default", underlayD1, true},
	} {
		m := c.m
		logTimings(t, m, c.way, "k0scontroller.service")
		assertProvisioned(t, m, c.source)
		assertNetworkManager(t, m, "underlay", c.addr)
		assertK0sStarted(t, m, "k0scontroller.service")
		// Without an overlay the node address is the default route's source.
		assertNodeAddress(t, m, c.addr, false)

		if links := strings.TrimSpace(m.MustExec("ip", "-o", "link", "show", "type", "wireguard")); links != "" {
			t.Errorf("%s: a wireguard link exists on a node without an overlay: %s", m.Name, links)
		}
		early := strings.TrimSpace(m.read(modulesProbe))
		later := m.hasModule("wireguard")
		t.Logf("%s: wireguard right after systemd-modules-load: %s; in /proc/modules after the boot: %v", m.Name, early, later)
		switch {
		case c.moduleExpected && early != "loaded":
			t.Errorf("%s: the modules-load.d entry did not load wireguard at boot (sampled %q)", m.Name, early)
		case !c.moduleExpected && early != "absent":
			t.Errorf("%s: negative control: wireguard was loaded (%q) with the modules-load.d entry masked, so the check above proves nothing", m.Name, early)
		}
	}
	t.Run("negative control: a secret server never up", func(t *testing.T) {
		logTimings(t, n1, "join token from a server never up", "k0sworker.service")
		assertNeverCame(t, n1, never.shown, n1WaitFor, "k0sworker.service")
		for where, text := range secretViews(n1) {
			secrets.Absent(t, "n1: "+where, text)
		}
	})
	f1.Poweroff()
	d1.Poweroff()
	n1.Poweroff()
}
