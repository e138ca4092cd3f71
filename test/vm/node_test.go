package vm

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/testutil/guest"
)

// assertProvisioned checks a first boot that went through, with the
// configuration from the given source: the agent ran once and succeeded,
// the marker is written, k0s was installed once.
func assertProvisioned(t *testing.T, m *Machine, source string) {
	t.Helper()
	agent := m.Show("corium-agent.service", "Result", "ActiveState", "ConditionResult")
	if agent["Result"] != "success" || agent["ActiveState"] != "active" || agent["ConditionResult"] != "yes" {
		t.Errorf("%s: corium-agent.service = %v, want run and active (exited) after success", m.Name, agent)
	}
	var st status.Status
	raw := m.MustExec("cat", status.Path)
	if err := json.Unmarshal([]byte(raw), &st); err != nil {
		t.Fatalf("%s: %s: %v", m.Name, status.Path, err)
	}
	if st.Outcome != status.Provisioned || st.Provenance == nil || st.Provenance.Source != source {
		t.Errorf("%s: status outcome %q, provenance %+v; want provisioned from %s", m.Name, st.Outcome, st.Provenance, source)
	} else {
		for _, tr := range st.Provenance.Tried {
			t.Logf("%s: source %s: %s %s", m.Name, tr.Source, tr.Outcome, tr.Reason)
		}
	}
	// Under emulation the agent is slow; its own record says where the time went.
	var steps []string
	for _, s := range st.Steps {
		steps = append(steps, fmt.Sprintf("%s %d ms", s.Name, s.DurationMS))
	}
	t.Logf("%s: agent run %v by its own clock; steps: %s", m.Name, st.FinishedAt.Sub(st.StartedAt).Round(time.Millisecond), strings.Join(steps, ", "))
	if _, err := m.Exec("test", "-e", "/var/lib/corium/provisioned"); err != nil {
		t.Errorf("%s: no marker after a successful first boot", m.Name)
	}
	if n := m.standIn().Installs(); n != 1 {
		t.Errorf("%s: k0s install ran %d times, want 1", m.Name, n)
	}
}

// assertK0sStarted checks that the stand-in's k0s unit runs in this boot.
func assertK0sStarted(t *testing.T, m *Machine, unit string) {
	t.Helper()
	k := m.Show(unit, "ActiveState", "ExecMainStartTimestampMonotonic")
	if k["ActiveState"] != "active" || guest.Monotonic(k, "ExecMainStartTimestampMonotonic") == 0 || !m.standInStartedThisBoot() {
		t.Errorf("%s: %s = %v, want the stand-in started in this boot", m.Name, unit, k)
	}
}

// assertNodeAddress checks the address k0s was installed with, from the
// stand-in's record of `k0s install`, and for a controller the rendered
// k0s.yaml's API and etcd addresses.
func assertNodeAddress(t *testing.T, m *Machine, addr string, controller bool) {
	t.Helper()
	argv := m.standIn().InstallArgs()
	if !slices.Contains(argv, "--kubelet-extra-args=--node-ip="+addr) {
		t.Errorf("%s: k0s install argv %q lacks --kubelet-extra-args=--node-ip=%s", m.Name, argv, addr)
	}
	t.Logf("%s: k0s install %s", m.Name, strings.Join(argv[1:], " "))
	if !controller {
		return
	}
	yaml := m.MustExec("cat", "/etc/k0s/k0s.yaml")
	var lines []string
	for _, l := range strings.Split(yaml, "\n") {
		if strings.Contains(l, addr) {
			lines = append(lines, strings.TrimSpace(l))
		}
	}
	if len(lines) == 0 || strings.Contains(yaml, underlayC1) {
		t.Errorf("%s: /etc/k0s/k0s.yaml does not name %s only:\n%s", m.Name, addr, yaml)
	}
	t.Logf("%s: /etc/k0s/k0s.yaml: %s", m.Name, strings.Join(lines, "; "))
}

// assertStatus runs corium-agent status on the machine: the verdict is ok
// and every peer of wg0 reachable.
func assertStatus(t *testing.T, m *Machine) {
	t.Helper()
	text, _ := m.Exec("corium-agent", "status")
	verdict := firstLine(text)
	raw, _ := m.Exec("corium-agent", "status", "--format", "json")
	var r struct {
		Interfaces []struct {
			Name  string `json:"name"`
			Peers []struct {
				PublicKey string `json:"publicKey"`
				Class     string `json:"class"`
			} `json:"peers"`
		} `json:"interfaces"`
	}
	if err := json.Unmarshal([]byte(raw), &r); err != nil {
		t.Fatalf("%s: corium-agent status --format json: %v\n%s", m.Name, err, m.Secrets.Redact(t, raw))
	}
	var peers []string
	for _, it := range r.Interfaces {
		for _, p := range it.Peers {
			peers = append(peers, it.Name+" peer "+p.PublicKey+" "+p.Class)
			if p.Class != "reachable" {
				t.Errorf("%s: status says %s peer %s is %s, want reachable", m.Name, it.Name, p.PublicKey, p.Class)
			}
		}
	}
	if verdict != "ok" || len(peers) == 0 {
		t.Errorf("%s: corium-agent status verdict %q with peers %v, want ok with wg0's peer:\n%s", m.Name, verdict, peers, m.Secrets.Redact(t, text))
	}
	m.Secrets.Logf(t, "%s: corium-agent status: %s; %s", m.Name, verdict, strings.Join(peers, "; "))
}
