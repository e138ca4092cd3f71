package vm

import (
	"strings"
	"testing"
)

// assertSecretsFromCredentials checks that the keys and the join token
// came from the SMBIOS credentials systemd imported (the agent says where
// each secret was resolved from), and that none of their values is in any
// document the machines were given or in anything the agent left for an
// operator to read. A node whose secrets were sealed to its TPM has the
// cleartext only in its agent unit's credentials (assertSealedSecretsUsed).
func assertSecretsFromCredentials(t *testing.T, n *twoNodes) {
	t.Helper()
	want := map[*Machine][]string{
		n.c1: {"wireguard[0].privateKeyFrom: resolved from credential " + wgCredential},
		n.w1: {"wireguard[0].privateKeyFrom: resolved from credential " + wgCredential, "join.tokenFrom: resolved from credential " + joinCredential},
	}
	for m, lines := range want {
		creds := m.MustExec("systemd-creds", "list", "--system", "--no-legend")
		journal := m.MustExec("journalctl", "-b", "-u", "corium-agent.service", "-o", "cat", "--no-pager")
		for _, l := range lines {
			if !strings.Contains(journal, l) {
				t.Errorf("%s: the agent's journal lacks %q", m.Name, l)
			}
		}
		t.Logf("%s: system credentials: %s", m.Name, strings.Join(strings.Fields(creds), " "))
		if m == n.w1 && n.sealed != nil {
			assertSealedSecretsUsed(t, m, n.sealed)
		}
		for where, text := range secretViews(m) {
			m.Secrets.Absent(t, m.Name+": "+where, text)
		}
	}
}
