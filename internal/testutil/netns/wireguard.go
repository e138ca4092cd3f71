package netns

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.zx2c4.com/wireguard/wgctrl"
)

// The test machines have no WireGuard kernel module: wg-quick runs the
// userspace wireguard-go instead, whose control sockets in /run/wireguard
// are shared by every namespace. Interfaces of concurrent tests therefore
// need distinct names (RandHex), and one wgctrl client reaches the devices
// of every namespace.

// WgQuickEnv makes wg-quick use wireguard-go, and wireguard-go accept it.
var WgQuickEnv = []string{"WG_QUICK_USERSPACE_IMPLEMENTATION=wireguard-go", "WG_I_PREFER_BUGGY_USERSPACE_TO_POLISHED_KMOD=1"}

// WgQuick runs the real `wg-quick VERB CONF` inside the namespace, with the
// userspace implementation, and returns its output. wg-quick names the
// interface after the file.
func (n *Netns) WgQuick(verb, conf string) (string, error) {
	cmd := exec.Command("ip", "netns", "exec", n.Name, "wg-quick", verb, conf)
	cmd.Env = append(os.Environ(), WgQuickEnv...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TryWgQuickUp is `wg-quick up CONF` in the namespace; whatever it did is
// undone when the test ends (wg-quick down, and the interface's
// wireguard-go ended if that leaves it running).
func (n *Netns) TryWgQuickUp(t testing.TB, conf string) (string, error) {
	t.Helper()
	out, err := n.WgQuick("up", conf)
	t.Cleanup(func() {
		_, _ = n.WgQuick("down", conf)
		KillWireGuardGo(strings.TrimSuffix(filepath.Base(conf), ".conf"))
	})
	return out, err
}

// WgQuickUp is TryWgQuickUp failing the test on error.
func (n *Netns) WgQuickUp(t testing.TB, conf string) {
	t.Helper()
	if out, err := n.TryWgQuickUp(t, conf); err != nil {
		t.Fatalf("wg-quick up %s: %v\n%s", conf, err, out)
	}
}

// KillWireGuardGo ends the wireguard-go process serving iface, found by its
// exact command line, and removes its socket, if wg-quick down left them: a
// leftover would hold the name for the next test.
func KillWireGuardGo(iface string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
		if len(args) == 2 && filepath.Base(args[0]) == "wireguard-go" && args[1] == iface {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
	_ = os.Remove("/run/wireguard/" + iface + ".sock")
}

// WireGuardClient is a wgctrl client, closed when the test ends. It reads
// the userspace devices of every namespace (see above).
func WireGuardClient(t testing.TB) *wgctrl.Client {
	t.Helper()
	wg, err := wgctrl.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = wg.Close() })
	return wg
}
