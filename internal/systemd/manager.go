package systemd

import (
	"context"
	"errors"
	"fmt"
)

// Manager is the live systemd the agent drives.
type Manager interface {
	// DaemonReload makes systemd re-read unit files and drop-ins.
	DaemonReload(ctx context.Context) error
	// NeedsReload says whether systemd has one of the units loaded from
	// files older than the disk's (its NeedDaemonReload property), the one
	// case a reload changes anything for them. A unit not loaded yet is
	// loaded by the question, from the disk as it is.
	NeedsReload(ctx context.Context, units ...string) (bool, error)
	// StartAndWait starts a unit and waits for its job; a job that does not
	// end "done" is an error naming the unit and where to look.
	StartAndWait(ctx context.Context, unit string) error
	// RestartAndWait restarts (or starts) a unit and waits for its job.
	RestartAndWait(ctx context.Context, unit string) error
	// ReloadAndWait reloads a running unit (its ExecReload=) and waits for
	// the job. It is a plain reload: a unit that is not active is an error,
	// never started or restarted in its place.
	ReloadAndWait(ctx context.Context, unit string) error
	// StopAndWait stops a unit and waits for its job.
	StopAndWait(ctx context.Context, unit string) error
	// QueueStart queues a start job and returns without waiting: for units
	// ordered after the agent itself, whose start would wait for the agent.
	QueueStart(ctx context.Context, unit string) error
	// UnitState reads a unit's load, active and sub state.
	UnitState(ctx context.Context, unit string) (State, error)
}

// State is a unit's state as `systemctl show` names it.
type State struct {
	Load   string `json:"load"`   // loaded, not-found, masked, ...
	Active string `json:"active"` // active, inactive, failed, activating, ...
	Sub    string `json:"sub"`    // running, exited, dead, ...
}

func (s State) String() string { return s.Load + "/" + s.Active + "/" + s.Sub }

// ErrJob is wrapped by every error of a job that ran and did not end "done".
var ErrJob = errors.New("systemd job did not succeed")

// JobError is a job that ended with a result other than "done".
type JobError struct {
	Verb   string // starting, restarting, reloading, stopping
	Unit   string
	Result string // failed, timeout, canceled, dependency, skipped
}

func (e *JobError) Error() string {
	return fmt.Sprintf("%s %s: job %s; see journalctl -u %s and systemctl status %s", e.Verb, e.Unit, e.Result, e.Unit, e.Unit)
}

func (e *JobError) Unwrap() error { return ErrJob }
