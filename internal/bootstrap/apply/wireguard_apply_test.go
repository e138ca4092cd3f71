package apply_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/apply"
	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/bootstrap/render/rendertest"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/systemd/systemdtest"
)

type fileID struct {
	ino   uint64
	mtime time.Time
}

func identify(t *testing.T, root rootfs.Root, paths ...string) map[string]fileID {
	t.Helper()
	out := map[string]fileID{}
	for _, p := range paths {
		info, err := root.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = fileID{ino: info.Sys().(*syscall.Stat_t).Ino, mtime: info.ModTime()}
	}
	return out
}

// TestWireGuardApplyTwice applies the overlay's steps (its unit files, their
// reload, the interfaces) through the executor with a fake systemd: the
// first run writes, asks whether a reload is needed (systemd has none of
// the units loaded, so none is), restarts and verifies; the second changes
// no file (same inode and mtime), asks nothing and restarts nothing; a
// changed interface restarts alone.
func TestWireGuardApplyTwice(t *testing.T) {
	ctx := context.Background()
	cfg := rendertest.TwoInterfaceConfig(schema.RoleWorker)
	steps := overlaySteps(t, render.Inputs{Config: cfg, Secrets: rendertest.TwoInterfaceSecrets()})
	devs, links := applytest.LiveDevicesFor(t, steps[2])
	root := rootfs.New(t.TempDir())
	run := func(steps []plan.Step) string {
		t.Helper()
		sd := &systemdtest.Fake{}
		ex := &apply.Executor{Root: root, LiveUnderRoot: true, Live: &apply.LiveHost{Systemd: sd, Verifier: apply.Verifier{Devices: devs, Links: links}}}
		if _, err := ex.Apply(ctx, &plan.Plan{Steps: steps}); err != nil {
			t.Fatal(err)
		}
		return sd.Text()
	}

	first := run(steps)
	want := strings.Join([]string{
		"needs-reload wg-quick@wg0.service wg-quick@wg1.service k0sworker.service",
		"restart wg-quick@wg0.service", "start wg-quick@wg0.service",
		"restart wg-quick@wg1.service", "start wg-quick@wg1.service",
	}, "\n")
	if first != want {
		t.Errorf("first run asked systemd:\n%s\nwant:\n%s", first, want)
	}
	paths := []string{render.WireGuardConfPath("wg0"), render.WireGuardConfPath("wg1"), render.WireGuardDropInPath(cfg.Role), steps[0].Links[0].Path, steps[0].Links[1].Path}
	before := identify(t, root, paths...)
	for _, p := range []string{render.WireGuardConfPath("wg0"), render.WireGuardConfPath("wg1")} {
		if info, _ := root.Stat(p); info.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", p, info.Mode().Perm())
		}
	}
	if info, _ := root.Stat(wireGuardDir); info.Mode().Perm() != 0o700 {
		t.Errorf("%s has mode %v, want 0700", wireGuardDir, info.Mode().Perm())
	}

	time.Sleep(10 * time.Millisecond) // so a rewrite would show in the mtime
	second := run(steps)
	if strings.Contains(second, "restart") || strings.Contains(second, "reload") {
		t.Errorf("second run restarted or reloaded:\n%s", second)
	}
	if after := identify(t, root, paths...); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("second run touched files:\nbefore %v\nafter  %v", before, after)
	}

	keepalive := 10
	cfg.WireGuard[1].Peers[0].PersistentKeepalive = &keepalive
	changed := overlaySteps(t, render.Inputs{Config: cfg, Secrets: rendertest.TwoInterfaceSecrets()})
	devs, links = applytest.LiveDevicesFor(t, changed[2]) // as the restart leaves the device
	third := run(changed)
	if !strings.Contains(third, "restart wg-quick@wg1.service") || strings.Contains(third, "restart wg-quick@wg0.service") || strings.Contains(third, "reload") {
		t.Errorf("after changing wg1 only, systemd was asked:\n%s\nwant wg1 restarted, wg0 left alone, and no reload", third)
	}
}

func TestWireGuardApplyFailsOnBadDevice(t *testing.T) {
	ctx := context.Background()
	cfg := rendertest.TwoInterfaceConfig(schema.RoleWorker)
	step, err := render.RenderWireGuard(cfg, rendertest.TwoInterfaceSecrets())
	if err != nil {
		t.Fatal(err)
	}
	devs, links := applytest.LiveDevicesFor(t, step)
	devs["wg0"].ListenPort = 4242
	ex := &apply.Executor{Root: rootfs.New(t.TempDir()), LiveUnderRoot: true,
		Live: &apply.LiveHost{Systemd: &systemdtest.Fake{}, Verifier: apply.Verifier{Devices: devs, Links: links}}}
	st, err := ex.Apply(ctx, &plan.Plan{Steps: []plan.Step{step}})
	if err == nil || !strings.Contains(err.Error(), "listen port is 4242") {
		t.Fatalf("got %v, want the listen port mismatch", err)
	}
	if data, _ := json.Marshal(st); !strings.Contains(string(data), "failed") {
		t.Errorf("status does not record the failure: %s", data)
	}
}

func TestVerifyWaitsForAddresses(t *testing.T) {
	step := workerStep(t)
	devs, links := applytest.LiveDevicesFor(t, step)
	e := applytest.DeviceOf(t, step)
	links.After = 2 // the addresses appear on the third read
	if err := (apply.Verifier{Devices: devs, Links: links, AddressWait: 5 * time.Second}).Verify(context.Background(), e); err != nil {
		t.Fatalf("addresses that appear within the wait: %v", err)
	}
	links.Addrs[e.Name] = nil
	err := apply.Verifier{Devices: devs, Links: links, AddressWait: 200 * time.Millisecond}.Verify(context.Background(), e)
	if err == nil || !strings.Contains(err.Error(), "10.10.0.1/24") {
		t.Fatalf("got %v, want the missing address named", err)
	}
}

func TestVerifyMissingDevice(t *testing.T) {
	step := workerStep(t)
	_, links := applytest.LiveDevicesFor(t, step)
	err := apply.Verifier{Devices: applytest.Devices{}, Links: links}.Verify(context.Background(), applytest.DeviceOf(t, step))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "journalctl -u wg-quick@wg0.service") {
		t.Fatalf("got %v, want a not-exist error that says where to look", err)
	}
}
