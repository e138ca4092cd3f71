package report

import (
	"context"
	"fmt"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/systemd"
)

// Services reads how a service's last start went; *bus.DBus and
// *systemdtest.Fake are ones.
type Services interface {
	ServiceRun(ctx context.Context, unit string) (systemd.ServiceRun, error)
}

// Journal reads systemd's lines about one invocation of a unit;
// bus.InvocationJournal is the live one.
type Journal interface {
	InvocationLines(ctx context.Context, invocationID string, n int) ([]string, error)
}

// journalLines is how many of systemd's lines the report quotes.
const journalLines = 6

// StepUnit is the verdict's step when the agent's unit failed without a
// record of the agent's own.
const StepUnit = "unit"

// AgentUnit is the agent's unit when its last start failed and the agent
// left no record of that start: systemd failed it before the agent ran
// (a credential it could not decrypt, for one), or the agent died before
// writing its status. systemd's account is then the only one.
type AgentUnit struct {
	Unit   string `json:"unit"`
	Result string `json:"result"`
	// ExitStatus is "243/CREDENTIALS" or the like; "" when the main
	// process did not exit (it was killed).
	ExitStatus string `json:"exitStatus,omitempty"`
	// BeforeAgent is true when systemd ended the start while setting the
	// process up, so the agent never ran.
	BeforeAgent bool `json:"beforeAgent"`
	// Credentials are the credentials systemd had to read for the unit,
	// when the start failed on them: ID, and where from.
	Credentials []string `json:"credentials,omitempty"`
	// Reason is what happened, in one line; Fix what to do.
	Reason string `json:"reason"`
	Fix    string `json:"fix"`
	// Journal is systemd's lines about that start and the agent's own
	// (warning and above); no other process's (bus.InvocationJournal).
	Journal []string `json:"journal,omitempty"`
}

// agentUnit reports the agent's unit when its last start failed in this
// boot and no status record is from that start.
func (in *inspection) agentUnit() {
	if in.o.Services == nil {
		return
	}
	unit := render.AgentUnit
	run, err := in.o.Services.ServiceRun(in.ctx, unit)
	if err != nil {
		in.unknown(unit, err.Error())
		return
	}
	if run.Result == "" || run.Result == "success" || run.StartedAt.IsZero() {
		return
	}
	if in.run != nil && !in.run.StartedAt.Before(run.StartedAt) {
		return // the agent recorded this start itself: its record says more
	}
	a := &AgentUnit{Unit: unit, Result: run.Result, BeforeAgent: run.SetupFailed()}
	if run.Exited() {
		a.ExitStatus = run.ExitStatus()
	}
	switch {
	case run.Exited() && run.ExecMainStatus == systemd.ExitCredentials:
		a.Credentials = credentialsRead(run)
		a.Reason = fmt.Sprintf("%s exited %s before the agent ran: systemd could not read or decrypt %s", unit, a.ExitStatus, credentialsPhrase(a.Credentials))
		a.Fix = "a credential sealed to a TPM2 (systemd-creds encrypt --with-key=tpm2) decrypts only on the node whose TPM sealed it, with that TPM present (systemd-analyze has-tpm2) and the PCRs it was sealed against unchanged: seal the secret again on this node (docs/secrets.md), then systemctl restart " + unit
	case a.BeforeAgent:
		a.Reason = fmt.Sprintf("%s exited %s before the agent ran: systemd could not set the process up", unit, a.ExitStatus)
		a.Fix = "see journalctl -u " + unit + " and systemctl status " + unit
	default:
		what := a.ExitStatus
		if what == "" {
			what = "result " + run.Result
		}
		a.Reason = fmt.Sprintf("%s failed (%s) and the agent left no record of that run (killed or crashed before writing its status)", unit, what)
		a.Fix = "see journalctl -u " + unit
	}
	if in.o.Journal != nil {
		lines, err := in.o.Journal.InvocationLines(in.ctx, run.InvocationID, journalLines)
		if err != nil {
			in.unknown(unit+" journal", err.Error())
		}
		a.Journal = lines
	}
	in.r.AgentUnit = a
}

// credentialsRead are the credentials whose reading can fail a start:
// every LoadCredentialEncrypted= (and a LoadCredential= from an absolute
// path, which must exist; a relative one that is missing is skipped), and
// the encrypted credstores an ImportCredential= glob decrypts from.
func credentialsRead(run systemd.ServiceRun) []string {
	var out []string
	for _, c := range run.Credentials {
		switch {
		case c.Encrypted:
			out = append(out, c.ID+" (LoadCredentialEncrypted= from "+c.Source+")")
		case strings.HasPrefix(c.Source, "/"):
			out = append(out, c.ID+" (LoadCredential= from "+c.Source+")")
		}
	}
	for _, glob := range run.Imports {
		out = append(out, glob+" (ImportCredential=, as found encrypted in /etc/credstore.encrypted or /run/credstore.encrypted)")
	}
	return out
}

func credentialsPhrase(creds []string) string {
	switch len(creds) {
	case 0:
		return "a credential of the unit"
	case 1:
		return "credential " + creds[0]
	}
	return "one of its credentials, " + strings.Join(creds, ", ") + " (systemd stops at the first and does not say which)"
}
