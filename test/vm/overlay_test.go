package vm

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// hasModule says whether /proc/modules lists the module.
func (m *Machine) hasModule(name string) bool {
	for _, line := range strings.Split(m.MustExec("cat", "/proc/modules"), "\n") {
		if f := strings.Fields(line); len(f) > 0 && f[0] == name {
			return true
		}
	}
	return false
}

// assertKernelWireGuard checks that wg0 is the kernel's WireGuard: the link
// is of type wireguard, the module is loaded, and the image has no
// userspace implementation it could have fallen back to.
func assertKernelWireGuard(t *testing.T, m *Machine) {
	t.Helper()
	link := m.MustExec("ip", "-d", "link", "show", "wg0")
	kind := ""
	for _, l := range strings.Split(link, "\n") {
		if f := strings.Fields(l); len(f) > 0 && f[0] == "wireguard" {
			kind = f[0]
		}
	}
	if kind != "wireguard" {
		t.Errorf("%s: wg0 is not a kernel wireguard link:\n%s", m.Name, link)
	}
	if !m.hasModule("wireguard") {
		t.Errorf("%s: /proc/modules does not list wireguard with wg0 up", m.Name)
	}
	if out, err := m.Exec("sh", "-c", "command -v wireguard-go || dpkg-query -W wireguard-go"); err == nil {
		t.Errorf("%s: the image has wireguard-go: %s", m.Name, out)
	}
	t.Logf("%s: ip -d link show wg0: %s", m.Name, strings.Join(strings.Fields(link), " "))
}

// pingOverlay sends packets across the overlay, which also makes WireGuard
// complete its handshake (no keepalive is configured).
func pingOverlay(t *testing.T, from *Machine, addr string) {
	t.Helper()
	out, err := from.Exec("ping", "-c", "3", "-W", "3", addr)
	if err != nil {
		t.Errorf("%s: ping %s across the overlay: %v\n%s", from.Name, addr, err, out)
		return
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "packets transmitted") || strings.HasPrefix(l, "rtt") {
			t.Logf("%s: ping %s: %s", from.Name, addr, l)
		}
	}
}

// assertHandshake checks that wg0's peer completed a handshake within the
// last three minutes, from the kernel's own record, and prints wg show.
func assertHandshake(t *testing.T, m *Machine) {
	t.Helper()
	out := m.MustExec("wg", "show", "wg0", "latest-handshakes")
	now := time.Now().Unix()
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			t.Errorf("%s: wg show wg0 latest-handshakes: %q", m.Name, out)
			continue
		}
		ts, _ := strconv.ParseInt(f[1], 10, 64)
		if ts == 0 || now-ts > 180 {
			t.Errorf("%s: wg0 peer %s: latest handshake %d, want one in the last 180 s", m.Name, f[0], ts)
		}
	}
	m.Secrets.Logf(t, "%s: wg show wg0:\n%s", m.Name, m.MustExec("wg", "show", "wg0"))
}

// lineWith is the first line of text that contains s, trimmed, or "".
func lineWith(text, s string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return strings.TrimSpace(l)
		}
	}
	return ""
}

// assertNetworkManager checks that NetworkManager is the machine's network
// renderer: network-online.target came through NetworkManager-wait-online,
// systemd-networkd did not run, and the underlay's profile is the one given
// (a keyfile in the disk, or the one cloud-init rendered from the seed's
// network-config, which it names "cloud-init IFNAME").
func assertNetworkManager(t *testing.T, m *Machine, profile, addr string) {
	t.Helper()
	wait := m.Show("NetworkManager-wait-online.service", "Result", "ActiveState", "ActiveEnterTimestampMonotonic")
	online := m.Show("network-online.target", "ActiveEnterTimestampMonotonic")
	if wait["Result"] != "success" || wait["ActiveState"] != "active" ||
		guest.Monotonic(wait, "ActiveEnterTimestampMonotonic") > guest.Monotonic(online, "ActiveEnterTimestampMonotonic") {
		t.Errorf("%s: NetworkManager-wait-online = %v, network-online.target %v; want wait-online done first", m.Name, wait, online)
	}
	if nd := m.Show("systemd-networkd.service", "ActiveState", "ExecMainStartTimestampMonotonic"); nd["ActiveState"] == "active" ||
		guest.Monotonic(nd, "ExecMainStartTimestampMonotonic") != 0 {
		t.Errorf("%s: systemd-networkd ran (%v); NetworkManager is the only renderer", m.Name, nd)
	}
	conns := m.MustExec("nmcli", "-g", "NAME,DEVICE,STATE", "connection", "show", "--active")
	if !strings.HasPrefix(lineWith(conns, profile), profile) || !strings.Contains(lineWith(conns, profile), ":activated") {
		t.Errorf("%s: the active NetworkManager profiles are %q, want one named %q...", m.Name, conns, profile)
	}
	if addrs := m.MustExec("ip", "-br", "-4", "addr"); !strings.Contains(addrs, addr+"/24") {
		t.Errorf("%s: no %s on the underlay:\n%s", m.Name, addr, addrs)
	}
	t.Logf("%s: NetworkManager profiles active: %s; network-online.target at %s", m.Name,
		strings.Join(strings.Fields(conns), " "), seconds(guest.Monotonic(online, "ActiveEnterTimestampMonotonic")))
}
