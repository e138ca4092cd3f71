package store

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

// BeginRun records that a run of command has begun to change the node.
func BeginRun(root rootfs.Root, command string, at time.Time) error {
	b, err := json.Marshal(status.Unfinished{Command: command, StartedAt: at.UTC()})
	if err != nil {
		return fmt.Errorf("encoding the run record: %w", err)
	}
	if _, err := root.WriteFile(status.RunPath, append(b, '\n'), 0o600, 0o700); err != nil {
		return fmt.Errorf("recording the run's start: %w", err)
	}
	return nil
}

// EndRun removes the record: the run ended, and its outcome is its own.
func EndRun(root rootfs.Root) error {
	if _, err := root.Remove(status.RunPath); err != nil {
		return fmt.Errorf("removing the run record: %w", err)
	}
	return nil
}

// ReadUnfinished is the run the record names, nil when there is none. A
// record that cannot be decoded is still a run that did not end: it was
// cut while being written, which the atomic write makes all but
// impossible, so its time is unknown.
func ReadUnfinished(root rootfs.Root) (*status.Unfinished, error) {
	b, err := root.ReadFile(status.RunPath)
	if isNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the run record: %w", err)
	}
	var u status.Unfinished
	if json.Unmarshal(b, &u) != nil {
		return &status.Unfinished{Command: "a run"}, nil
	}
	return &u, nil
}
