package status

import (
	"time"
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
