package apply

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

// Live carries out one live action on the running host (systemd over D-Bus,
// `k0s install`, sethostname, nftables, a WireGuard device check).
type Live interface {
	Do(ctx context.Context, a plan.Action) error
}

// Skipped is what Live.Do returns for an action it found nothing to do
// for: the executor reports it as skipped, with the reason, not as done.
type Skipped struct{ Reason string }

func (s *Skipped) Error() string { return "skipped: " + s.Reason }

// Executor carries out plans under a root. Files and links are written
// atomically through the root; live actions go to Live, and only when the
// root is the host's "/" — under any other root they are listed as skipped.
type Executor struct {
	Root rootfs.Root
	Live Live
	Log  *slog.Logger
	// AfterWrite, when set, runs after each file or link is written; an
	// error stops the run right there, as a crash would.
	AfterWrite func(path string) error
	// LiveUnderRoot sends live actions to Live under any root; tests set it
	// with a recording Live to see what a host would have done.
	LiveUnderRoot bool

	changed map[string]bool
}

// Apply runs the plan's steps in order and reports each. It stops at the
// first failure; the steps after it are reported as not run.
func (e *Executor) Apply(ctx context.Context, p *plan.Plan) ([]status.Step, error) {
	if e.changed == nil {
		e.changed = map[string]bool{}
	}
	log := e.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var out []status.Step
	var failed error
	for _, step := range p.Steps {
		if failed != nil {
			out = append(out, status.Step{Name: step.Name, Outcome: status.StepNotRun})
			continue
		}
		start := time.Now()
		st, err := e.applyStep(ctx, log, step)
		st.DurationMS = time.Since(start).Milliseconds()
		if err != nil {
			st.Outcome = status.StepFailed
			st.Error = err.Error()
			failed = fmt.Errorf("%s: %w", step.Name, err)
			log.Error("step failed", "step", step.Name, "error", err.Error())
		} else {
			st.Outcome = status.StepDone
			log.Info("step done", "step", step.Name, "ms", st.DurationMS)
		}
		out = append(out, st)
	}
	return out, failed
}

func (e *Executor) applyStep(ctx context.Context, log *slog.Logger, step plan.Step) (status.Step, error) {
	st := status.Step{Name: step.Name}
	for _, f := range step.Files {
		dirMode := f.DirMode
		if dirMode == 0 {
			dirMode = 0o755
		}
		change, err := e.Root.WriteFile(f.Path, f.Content, f.Mode, dirMode)
		if err != nil {
			return st, err
		}
		st.Files = append(st.Files, f.Shown(string(change)))
		if change != rootfs.Unchanged {
			e.changed[f.Path] = true
			log.Info("file written", "path", f.Path, "change", string(change))
		}
		if err := e.afterWrite(f.Path); err != nil {
			return st, err
		}
	}
	for _, l := range step.Links {
		change, err := e.Root.Symlink(l.Path, l.Target)
		if err != nil {
			return st, err
		}
		st.Files = append(st.Files, l.Shown(string(change)))
		if change != rootfs.Unchanged {
			e.changed[l.Path] = true
			log.Info("link written", "path", l.Path, "target", l.Target, "change", string(change))
		}
		if err := e.afterWrite(l.Path); err != nil {
			return st, err
		}
	}
	for _, a := range step.Actions {
		res := status.Action{ShownAction: a.Shown()}
		switch {
		case len(a.OnChange) > 0 && !e.anyChanged(a.OnChange):
			res.Outcome = "skipped: nothing it depends on changed"
		case !e.Root.IsHost() && !e.LiveUnderRoot:
			res.Outcome = "skipped: root is " + e.Root.Dir() + ", not the host"
		case e.Live == nil:
			res.Outcome = "skipped: no live host"
		default:
			var skipped *Skipped
			err := e.Live.Do(ctx, a)
			if errors.As(err, &skipped) {
				res.Outcome = skipped.Error()
				break
			}
			if err != nil {
				res.Outcome = "failed"
				res.Error = err.Error()
				st.Actions = append(st.Actions, res)
				return st, err
			}
			res.Outcome = "done"
		}
		log.Info("action", "action", a.String(), "outcome", res.Outcome)
		st.Actions = append(st.Actions, res)
	}
	for _, p := range step.Removes {
		removed, err := e.Root.Remove(p)
		if err != nil {
			return st, err
		}
		if !removed {
			continue
		}
		st.Files = append(st.Files, plan.Removed(p))
		e.changed[p] = true
		log.Info("file removed", "path", p)
		if err := e.afterWrite(p); err != nil {
			return st, err
		}
	}
	return st, nil
}

func (e *Executor) afterWrite(p string) error {
	if e.AfterWrite == nil {
		return nil
	}
	return e.AfterWrite(p)
}

func (e *Executor) anyChanged(paths []string) bool {
	for _, p := range paths {
		if e.changed[p] {
			return true
		}
	}
	return false
}
