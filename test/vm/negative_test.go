package vm

import (
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/testutil/guest"
)

// damageWireGuardConf replaces the private key in the rendered wg0.conf
// with text wg cannot parse, so wg-quick@wg0 fails at the next boot.
func damageWireGuardConf(t *testing.T, m *Machine) {
	t.Helper()
	m.MustExec("sed", "-i", "s/^PrivateKey *=.*/PrivateKey = not-a-key/", "/etc/wireguard/wg0.conf")
	if _, err := m.Exec("grep", "-qx", "PrivateKey = not-a-key", "/etc/wireguard/wg0.conf"); err != nil {
		t.Fatalf("%s: the damage did not land in /etc/wireguard/wg0.conf", m.Name)
	}
}

// assertOverlayKeepsK0sDown checks a provisioned node whose overlay cannot
// come up in this boot: wg-quick@wg0 fails, k0s's start job ends with
// result dependency (it Requires= the overlay), the stand-in never runs,
// and status names the unit.
func assertOverlayKeepsK0sDown(t *testing.T, m *Machine, k0sUnit string) {
	t.Helper()
	if r := m.jobResult("wg-quick@wg0.service", "start"); r != "failed" {
		t.Errorf("%s: wg-quick@wg0.service start job = %q, want failed", m.Name, r)
	}
	if r := m.jobResult(k0sUnit, "start"); r != "dependency" {
		t.Errorf("%s: %s start job = %q, want dependency", m.Name, k0sUnit, r)
	}
	k := m.Show(k0sUnit, "ActiveState", "ExecMainStartTimestampMonotonic")
	if k["ActiveState"] == "active" || guest.Monotonic(k, "ExecMainStartTimestampMonotonic") != 0 || m.standInStartedThisBoot() {
		t.Errorf("%s: %s ran with the overlay down (%v)", m.Name, k0sUnit, k)
	}
	text, _ := m.Exec("corium-agent", "status")
	verdict := firstLine(text)
	if !strings.HasPrefix(verdict, "degraded: tunnel: ") || !strings.Contains(verdict, "wg-quick@wg0") {
		t.Errorf("%s: corium-agent status verdict %q, want degraded at the tunnel, naming wg-quick@wg0:\n%s", m.Name, verdict, m.Secrets.Redact(t, text))
	}
	var why []string
	for _, e := range m.journal("_SYSTEMD_UNIT=wg-quick@wg0.service") {
		why = append(why, e.Message)
	}
	for _, e := range m.journal("UNIT=" + k0sUnit) {
		if strings.Contains(e.Message, "Dependency failed") {
			why = append(why, e.Message)
		}
	}
	m.Secrets.Logf(t, "%s: status: %s\n  journal: %s\n  %s start job: %s", m.Name, verdict, strings.Join(why, " | "), k0sUnit, m.jobResult(k0sUnit, "start"))
}
