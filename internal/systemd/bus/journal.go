package bus

import (
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
)

// InvocationJournal reads what systemd logged about one invocation of a
// unit, from journalctl: the manager's lines about the unit and the
// agent's own lines of that invocation, at warning and above, the last
// few. systemd's lines name credentials and say why they failed; they never
// hold a credential's value.
//
// Only those: another process of the unit (an ExecStartPre= a derived
// image adds, a child that logs as corium-agent) could otherwise put any
// text, a secret included, into status, with a "<3>" prefix
// (SyslogLevelPrefix=) or syslog's priority. So the manager's lines are
// matched by _PID=1 and the agent's by its syslog identifier together with
// its command name (_COMM=, which journald sets from the process, not from
// what it writes); a logger that only calls itself corium-agent is left out.
type InvocationJournal struct{}

// agent is the agent's syslog identifier and command name.
const agent = "corium-agent"

// invocationMatches are journalctl's matches of InvocationLines: fields of
// one group must all match, and "+" joins the groups.
func invocationMatches(invocationID string) []string {
	return []string{
		"_PID=1", "INVOCATION_ID=" + invocationID,
		"+", "_SYSTEMD_INVOCATION_ID=" + invocationID, "SYSLOG_IDENTIFIER=" + agent, "_COMM=" + agent,
	}
}

// InvocationLines is at most the last n such lines of the current boot.
func (InvocationJournal) InvocationLines(ctx context.Context, invocationID string, n int) ([]string, error) {
	if invocationID == "" {
		return nil, nil
	}
	args := append([]string{"--no-pager", "--quiet", "-b", "-o", "cat", "-p", "warning", "-n", strconv.Itoa(n)}, invocationMatches(invocationID)...)
	out, err := exec.CommandContext(ctx, "journalctl", args...).Output()
	if err != nil {
		return nil, fmt.Errorf("reading the journal of invocation %s: %w", invocationID, err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines, nil
}
