package vm

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/source/chain"
)

// TestVMFileAndImageDefault boots two more fresh machines, together, for the
// other two ways in: f1 with /etc/corium/config.yaml on its disk, d1 with a
// default baked into the image at /usr/share/corium/config.yaml. Neither
// configures an overlay, so they also show what loads the kernel's
// WireGuard and the guard's nftables modules: on d1 the image's
// modules-load.d entries load them by themselves (creating a link or
// programming the guard would load them on demand and prove nothing); f1
// has the entries masked, the control: without them the modules are not
// there when systemd-modules-load is done. Later in the boot both have
// them: a generic-netlink lookup of the wireguard family loads it on
// demand, as the agent's wgctrl does on every node, and so does the guard's
// batch; hence the early sample.
//
// A third machine boots with them, n1, the control of TestVMAgain's late
// secret server: its join token's server never comes up, and its boot ends
// after a short waitFor with k0s not started and status naming the URL
// (without the userinfo and query it has) and the attempts.
func TestVMFileAndImageDefault(t *testing.T) {
	requireVM(t)
	secrets := &Secrets{}
	f1 := newMachine(t, "f1", newDisk(t, "f1", func(s *staging) {
		noMetadata(macF1, underlayF1)(s)
		s.WriteFile("/etc/corium/config.yaml", []byte(fileConfig()), 0o600)
		for _, e := range imageModuleEntries(t) {
			s.Symlink("/dev/null", "/etc/modules-load.d/"+e.file)
		}
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
		{f1, chain.NameFile, "/etc/corium/config.yaml, modules-load.d entries masked", underlayF1, false},
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
		early := strings.Fields(m.read(modulesProbe))
		for _, e := range imageModuleEntries(t) {
			for _, mod := range e.modules {
				loaded, later := slices.Contains(early, mod), m.hasModule(mod)
				t.Logf("%s: %s (%s) right after systemd-modules-load: %v; in /proc/modules after the boot: %v", m.Name, mod, e.file, loaded, later)
				switch {
				case c.moduleExpected && !loaded:
					t.Errorf("%s: the modules-load.d entry %s did not load %s at boot (sampled: %v)", m.Name, e.file, mod, early)
				case !c.moduleExpected && loaded:
					t.Errorf("%s: negative control: %s was loaded with %s masked, so the check above proves nothing", m.Name, mod, e.file)
				}
			}
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

// moduleEntry is one of the image's modules-load.d files and the modules
// it names.
type moduleEntry struct {
	file    string
	modules []string
}

// imageModuleEntries reads image/usr/lib/modules-load.d: the list the
// image carries is the list checked.
func imageModuleEntries(t *testing.T) []moduleEntry {
	t.Helper()
	dir := filepath.Join(repoRoot, "image", "usr", "lib", "modules-load.d")
	files, err := filepath.Glob(filepath.Join(dir, "*.conf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no modules-load.d entry in %s (%v)", dir, err)
	}
	var out []moduleEntry
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		e := moduleEntry{file: filepath.Base(f)}
		for _, line := range strings.Split(string(raw), "\n") {
			if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") && !strings.HasPrefix(line, ";") {
				e.modules = append(e.modules, line)
			}
		}
		out = append(out, e)
	}
	return out
}
