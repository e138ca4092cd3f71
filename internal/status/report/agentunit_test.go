package report

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
	"github.com/corium/corium-agent/internal/systemd"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
)

// fakeJournal answers InvocationLines for one invocation.
type fakeJournal struct {
	id    string
	lines []string
	asked []string
}

func (j *fakeJournal) InvocationLines(_ context.Context, id string, _ int) ([]string, error) {
	j.asked = append(j.asked, id)
	if id != j.id {
		return nil, nil
	}
	return j.lines, nil
}

var (
	sealedStart = time.Date(2026, 3, 1, 9, 14, 2, 0, time.UTC)
	sealedRun   = systemd.ServiceRun{
		Result: "exit-code", ExecMainCode: 1, ExecMainStatus: 243, StartedAt: sealedStart, InvocationID: "0123abcd",
		Credentials: []systemd.CredentialSetting{
			{ID: "corium.wg0", Source: "corium-sealed.wg0", Encrypted: true},
			{ID: "corium.join", Source: "corium-sealed.join", Encrypted: true},
			{ID: "corium.extra", Source: "corium-extra"}, // relative: a missing one is skipped
		},
		Imports: []string{"corium.*"},
	}
	sealedJournal = []string{"Failed to unseal secret using TPM2: State not recoverable", "Failed to set up credentials: State not recoverable"}
)

func inspectAgentUnit(t *testing.T, root rootfs.Root, run systemd.ServiceRun) (*Report, *fakeJournal) {
	t.Helper()
	j := &fakeJournal{id: run.InvocationID, lines: sealedJournal}
	fake := &systemdtest.Fake{Runs: map[string]systemd.ServiceRun{"corium-agent.service": run}}
	return Inspect(context.Background(), Options{Root: root, Services: fake, Units: fake, Journal: j}), j
}

// A node whose agent unit systemd failed with 243/CREDENTIALS (a sealed
// credential it could not decrypt) has no record of a run: status says the
// unit failed before the agent ran, which credentials systemd had to read,
// what systemd logged for that start, and what to do.
func TestStatusReportsAgentUnitFailedOnCredentials(t *testing.T) {
	r, j := inspectAgentUnit(t, rootfs.New(t.TempDir()), sealedRun)
	line := r.Verdict.Line
	for _, want := range []string{"failed: unit: corium-agent.service exited 243/CREDENTIALS before the agent ran",
		"corium.wg0 (LoadCredentialEncrypted= from corium-sealed.wg0)", "corium.join (LoadCredentialEncrypted= from corium-sealed.join)"} {
		if !strings.Contains(line, want) {
			t.Errorf("verdict %q lacks %q", line, want)
		}
	}
	if strings.Contains(line, "corium.extra") {
		t.Errorf("verdict %q names a relative LoadCredential=, which cannot fail the start", line)
	}
	text := textOf(r)
	for _, want := range []string{
		"agent unit:   corium-agent.service: exit-code, 243/CREDENTIALS; failed before the agent ran",
		"  credential: corium.wg0 (LoadCredentialEncrypted= from corium-sealed.wg0)",
		"  credential: corium.* (ImportCredential=",
		"  what to do: a credential sealed to a TPM2",
		"docs/secrets.md",
		"  systemd: Failed to unseal secret using TPM2: State not recoverable",
		"  systemd: Failed to set up credentials: State not recoverable",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
	if len(j.asked) != 1 || j.asked[0] != "0123abcd" {
		t.Errorf("journal asked for %v, want the failed start's invocation only", j.asked)
	}
	raw, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		AgentUnit *AgentUnit `json:"agentUnit"`
	}
	if err := json.Unmarshal(raw, &back); err != nil || back.AgentUnit == nil || back.AgentUnit.ExitStatus != "243/CREDENTIALS" || !back.AgentUnit.BeforeAgent || len(back.AgentUnit.Journal) != 2 {
		t.Errorf("JSON agentUnit = %+v (%v)", back.AgentUnit, err)
	}
	if r.Verdict.State != Failed || statusOf(r) != "failed" {
		t.Errorf("state %q", r.Verdict.State)
	}
}

func statusOf(r *Report) string { return string(r.Verdict.State) }

// With one sealed credential, status names it.
func TestStatusNamesTheOneCredential(t *testing.T) {
	run := sealedRun
	run.Credentials = run.Credentials[:1]
	run.Imports = nil
	r, _ := inspectAgentUnit(t, rootfs.New(t.TempDir()), run)
	if want := "could not read or decrypt credential corium.wg0 (LoadCredentialEncrypted= from corium-sealed.wg0)"; !strings.HasSuffix(r.Verdict.Line, want) {
		t.Errorf("verdict %q, want it to end %q", r.Verdict.Line, want)
	}
}

// Other failures of systemd's own set-up, and a unit that failed after the
// agent ran without leaving a record, are told apart.
func TestStatusReportsOtherAgentUnitFailures(t *testing.T) {
	for _, c := range []struct {
		run  systemd.ServiceRun
		want string
	}{
		{systemd.ServiceRun{Result: "exit-code", ExecMainCode: 1, ExecMainStatus: 203, StartedAt: sealedStart},
			"failed: unit: corium-agent.service exited 203/EXEC before the agent ran: systemd could not set the process up"},
		{systemd.ServiceRun{Result: "signal", ExecMainCode: 2, ExecMainStatus: 9, StartedAt: sealedStart},
			"failed: unit: corium-agent.service failed (result signal) and the agent left no record of that run"},
		{systemd.ServiceRun{Result: "exit-code", ExecMainCode: 1, ExecMainStatus: 1, StartedAt: sealedStart},
			"failed: unit: corium-agent.service failed (1) and the agent left no record of that run"},
	} {
		r, _ := inspectAgentUnit(t, rootfs.New(t.TempDir()), c.run)
		if !strings.HasPrefix(r.Verdict.Line, c.want) {
			t.Errorf("%+v: verdict %q, want %q", c.run, r.Verdict.Line, c.want)
		}
	}
}

// The agent's own record of the failed start outranks systemd's account;
// a record from an earlier start does not, and a unit that never failed
// (or never started in this boot) adds nothing.
func TestStatusAgentUnitOnlyWithoutARecordOfThatStart(t *testing.T) {
	root := rootfs.New(t.TempDir())
	st := &status.Status{Command: "apply", Outcome: status.Failed, Error: "secrets: credential corium.wg0 is not set", StartedAt: sealedStart.Add(2 * time.Second)}
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	if r, _ := inspectAgentUnit(t, root, sealedRun); r.AgentUnit != nil || strings.Contains(r.Verdict.Line, "243") {
		t.Errorf("with the agent's own record of that start: verdict %q, agent unit %+v", r.Verdict.Line, r.AgentUnit)
	}
	st.StartedAt = sealedStart.Add(-time.Hour)
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	if r, _ := inspectAgentUnit(t, root, sealedRun); r.AgentUnit == nil || !strings.Contains(r.Verdict.Line, "243/CREDENTIALS") {
		t.Errorf("with a record older than the failed start: verdict %q", r.Verdict.Line)
	}
	for _, run := range []systemd.ServiceRun{{Result: "success", StartedAt: sealedStart}, {Result: "exit-code", ExecMainCode: 1, ExecMainStatus: 243}} {
		if r, _ := inspectAgentUnit(t, rootfs.New(t.TempDir()), run); r.AgentUnit != nil || !strings.HasPrefix(r.Verdict.Line, "unprovisioned") {
			t.Errorf("%+v: verdict %q, agent unit %+v; want unprovisioned and nothing about the unit", run, r.Verdict.Line, r.AgentUnit)
		}
	}
}
