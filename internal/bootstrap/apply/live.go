package apply

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/systemd"
)

// LiveHost is the Live of a running node: systemd over D-Bus, the k0s
// binary, the kernel hostname, the guard, wg for a change of whole peers
// and the WireGuard device check.
type LiveHost struct {
	Systemd systemd.Manager
	// Verifier checks a live WireGuard device against its expectation.
	Verifier Verifier
	// Guard programs the guard rendered to firewall.FilePath.
	Guard func(ctx context.Context) error
	// Exec runs a command; nil runs it with os/exec.
	Exec func(ctx context.Context, args []string) error
	// SetHostname sets the kernel hostname; nil calls sethostname(2).
	SetHostname func(name string) error
	// Peers adds and removes whole WireGuard peers; nil is WgTool.
	Peers WireGuardPeers
	// Root is where a wireguard-peers action reads the file it adds peers
	// from, and whose unit directory's filesystem an install syncs; the
	// zero Root is the host's "/".
	Root rootfs.Root
}

func (h *LiveHost) root() rootfs.Root {
	if h.Root.Dir() == "" {
		return rootfs.New("/")
	}
	return h.Root
}

// Do performs one action.
func (h *LiveHost) Do(ctx context.Context, a plan.Action) error {
	switch a.Kind {
	case plan.ActionDaemonReload:
		if len(a.Units) > 0 {
			behind, err := h.Systemd.NeedsReload(ctx, a.Units...)
			if err != nil {
				return err
			}
			if !behind {
				return &Skipped{Reason: "systemd has none of " + strings.Join(a.Units, ", ") + " loaded behind the disk"}
			}
		}
		return h.Systemd.DaemonReload(ctx)
	case plan.ActionStart:
		return h.Systemd.StartAndWait(ctx, a.Unit)
	case plan.ActionRestart:
		return h.Systemd.RestartAndWait(ctx, a.Unit)
	case plan.ActionReload:
		return h.Systemd.ReloadAndWait(ctx, a.Unit)
	case plan.ActionStop:
		return h.Systemd.StopAndWait(ctx, a.Unit)
	case plan.ActionQueueStart:
		return h.Systemd.QueueStart(ctx, a.Unit)
	case plan.ActionK0sInstall:
		run := h.Exec
		if run == nil {
			run = execCommand
		}
		if err := run(ctx, a.Args); err != nil {
			return fmt.Errorf("installing k0s (%s): %w", strings.Join(a.Args, " "), err)
		}
		// k0s writes its unit unsynced; the step after this one ends in the
		// marker, and a node whose marker outlives its unit never runs the
		// agent again to mend it.
		if err := h.root().SyncFS(systemd.UnitDir); err != nil {
			return fmt.Errorf("installing k0s: making its unit durable: %w", err)
		}
		return nil
	case plan.ActionHostname:
		if len(a.Args) != 1 {
			return errors.New("setting the hostname: want exactly one name")
		}
		set := h.SetHostname
		if set == nil {
			set = func(name string) error { return unix.Sethostname([]byte(name)) }
		}
		if err := set(a.Args[0]); err != nil {
			return fmt.Errorf("setting the hostname to %s: %w", a.Args[0], err)
		}
		return nil
	case plan.ActionFirewall:
		if h.Guard == nil {
			return errors.New("programming the guard: no firewall wired in")
		}
		return h.Guard(ctx)
	case plan.ActionVerifyDevice:
		if a.Device == nil {
			return errors.New("verifying a wireguard device: the action names no device")
		}
		return h.Verifier.Verify(ctx, *a.Device)
	case plan.ActionWireGuardPeers:
		return h.changePeers(ctx, a.Peers)
	}
	return fmt.Errorf("unknown action %q", a.Kind)
}

// execCommand runs args and returns its output's tail with a failure, so the
// journal says why (k0s is handed the token as a file, never an argument).
func execCommand(ctx context.Context, args []string) error {
	out, err := exec.CommandContext(ctx, args[0], args[1:]...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%w: %s", err, tail(out))
	}
	return nil
}
