package status

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
)

// RunPath is the record of a run that has begun to change the node: written
// (and synced) before its first write, removed when the run ends, whatever
// its outcome. Found by the next run, it says the one before never ended:
// the power was cut or the agent killed. It is under Dir, not beside the
// status file in /run, because a power cut empties /run.
const RunPath = Dir + "/run-started"

// Unfinished is a run that began to change the node and never ended.
type Unfinished struct {
	Command   string    `json:"command"`
	StartedAt time.Time `json:"startedAt"`
}

// Line says what became of it, for a person.
func (u *Unfinished) Line() string {
	at := "an unknown time"
	if !u.StartedAt.IsZero() {
		at = u.StartedAt.Format(time.RFC3339)
	}
	return u.Command + " started at " + at + " and did not finish (the power was cut or the agent was killed); the next run starts again from what is on disk"
}

// BeginRun records that a run of command has begun to change the node.
func BeginRun(root rootfs.Root, command string, at time.Time) error {
	b, err := json.Marshal(Unfinished{Command: command, StartedAt: at.UTC()})
	if err != nil {
		return fmt.Errorf("encoding the run record: %w", err)
	}
	if _, err := root.WriteFile(RunPath, append(b, '\n'), 0o600, 0o700); err != nil {
		return fmt.Errorf("recording the run's start: %w", err)
	}
	return nil
}

// EndRun removes the record: the run ended, and its outcome is its own.
func EndRun(root rootfs.Root) error {
	if _, err := root.Remove(RunPath); err != nil {
		return fmt.Errorf("removing the run record: %w", err)
	}
	return nil
}

// ReadUnfinished is the run the record names, nil when there is none. A
// record that cannot be decoded is still a run that did not end: it was
// cut while being written, which the atomic write makes all but
// impossible, so its time is unknown.
func ReadUnfinished(root rootfs.Root) (*Unfinished, error) {
	b, err := root.ReadFile(RunPath)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the run record: %w", err)
	}
	var u Unfinished
	if json.Unmarshal(b, &u) != nil {
		return &Unfinished{Command: "a run"}, nil
	}
	return &u, nil
}
