package systemdtest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/corium/corium-agent/internal/systemd"
)

// Fake is a Manager that records every call as a line of text and answers
// from maps, so tests read what a live host would have been asked to do.
type Fake struct {
	mu    sync.Mutex
	calls []string
	// Fail makes the call whose text line is the key return the error.
	Fail map[string]error
	// States answers UnitState; a unit not in it is loaded/inactive/dead,
	// or loaded/active/exited once started or restarted.
	States map[string]systemd.State
	// Runs answers ServiceRun; a unit not in it never started (a zero
	// ServiceRun with Result success).
	Runs map[string]systemd.ServiceRun
	// Behind are the units loaded from files older than the disk's, for
	// NeedsReload; a reload brings every one up to date.
	Behind map[string]bool
}

var _ systemd.Manager = (*Fake)(nil)

func (f *Fake) record(line string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, line)
	return f.Fail[line]
}

// Calls is every call so far, one per line.
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

// Text is Calls joined by newlines.
func (f *Fake) Text() string { return strings.Join(f.Calls(), "\n") }

func (f *Fake) DaemonReload(context.Context) error {
	if err := f.record("daemon-reload"); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.Behind = nil
	return nil
}

func (f *Fake) NeedsReload(_ context.Context, units ...string) (bool, error) {
	if err := f.record("needs-reload " + strings.Join(units, " ")); err != nil {
		return false, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, u := range units {
		if f.Behind[u] {
			return true, nil
		}
	}
	return false, nil
}

func (f *Fake) StartAndWait(_ context.Context, unit string) error {
	if err := f.record("start " + unit); err != nil {
		return err
	}
	f.setActive(unit)
	return nil
}

func (f *Fake) RestartAndWait(_ context.Context, unit string) error {
	if err := f.record("restart " + unit); err != nil {
		return err
	}
	f.setActive(unit)
	return nil
}

// ReloadAndWait fails, as systemd does, when the unit is not active.
func (f *Fake) ReloadAndWait(_ context.Context, unit string) error {
	if err := f.record("reload " + unit); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.States[unit].Active != "active" {
		return fmt.Errorf("reloading %s: unit is not active, cannot reload", unit)
	}
	return nil
}

func (f *Fake) StopAndWait(_ context.Context, unit string) error {
	if err := f.record("stop " + unit); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.States == nil {
		f.States = map[string]systemd.State{}
	}
	f.States[unit] = systemd.State{Load: "loaded", Active: "inactive", Sub: "dead"}
	return nil
}

func (f *Fake) QueueStart(_ context.Context, unit string) error {
	return f.record("queue-start " + unit)
}

func (f *Fake) UnitState(_ context.Context, unit string) (systemd.State, error) {
	if err := f.record("state " + unit); err != nil {
		return systemd.State{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if s, ok := f.States[unit]; ok {
		return s, nil
	}
	return systemd.State{Load: "loaded", Active: "inactive", Sub: "dead"}, nil
}

func (f *Fake) setActive(unit string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.States == nil {
		f.States = map[string]systemd.State{}
	}
	f.States[unit] = systemd.State{Load: "loaded", Active: "active", Sub: "exited"}
}

func (f *Fake) ServiceRun(_ context.Context, unit string) (systemd.ServiceRun, error) {
	if err := f.record("service-run " + unit); err != nil {
		return systemd.ServiceRun{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if r, ok := f.Runs[unit]; ok {
		return r, nil
	}
	return systemd.ServiceRun{Result: "success"}, nil
}
