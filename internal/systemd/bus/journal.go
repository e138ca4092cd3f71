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
// lines of the process it set up (both carry the invocation's id), at
// warning and above, the last few. systemd's lines name credentials and
// say why they failed; they never hold a credential's value.
type InvocationJournal struct{}

// InvocationLines is at most the last n such lines of the current boot.
func (InvocationJournal) InvocationLines(ctx context.Context, invocationID string, n int) ([]string, error) {
	if invocationID == "" {
		return nil, nil
	}
	out, err := exec.CommandContext(ctx, "journalctl", "--no-pager", "--quiet", "-b", "-o", "cat", "-p", "warning",
		"-n", strconv.Itoa(n), "INVOCATION_ID="+invocationID, "+", "_SYSTEMD_INVOCATION_ID="+invocationID).Output()
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
