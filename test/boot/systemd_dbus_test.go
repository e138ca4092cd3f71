package boot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/schema"
	"github.com/corium/corium-agent/internal/secret"
	"github.com/corium/corium-agent/internal/systemd"
	"github.com/corium/corium-agent/internal/systemd/bus"
	"github.com/corium/corium-agent/internal/testutil/fixture"
	"github.com/corium/corium-agent/internal/testutil/host"
	"github.com/corium/corium-agent/internal/testutil/netns"
)

// TestBootSystemdDBus drives a booted node's real systemd through the
// agent's D-Bus manager (internal/systemd), over the container's system
// bus: a waited-for start whose job fails names the unit and the journal,
// a queued start returns while the unit is still activating, a loaded unit
// with a new drop-in says it needs a reload and daemon-reload makes the
// drop-in count, a unit loaded only after its drop-in was written needs
// none, and a rendered wg-quick file is brought up by wg-quick@.service
// started and waited for.
func TestBootSystemdDBus(t *testing.T) {
	host.RequireRoot(t, "systemd-nspawn", "nsenter", "journalctl", "pgrep")
	ns := netns.New(t, "cb-sd")
	n := NewNode(t, "sd", ns)

	oneshot := func(desc, exec, install string) []byte {
		return []byte("[Unit]\nDescription=" + desc + "\n\n[Service]\nType=oneshot\nRemainAfterExit=yes\nExecStart=" + exec + "\n" + install)
	}
	n.WriteFile("/etc/systemd/system/probe-ok.service", oneshot("probe ok", "/bin/true", ""), 0o644)
	n.WriteFile("/etc/systemd/system/probe-fail.service", oneshot("probe fail", "/bin/false", ""), 0o644)
	n.WriteFile("/etc/systemd/system/probe-slow.service", oneshot("probe slow", "/bin/sleep 30", ""), 0o644)
	n.WriteFile("/etc/systemd/system/probe-dep.service", oneshot("probe dep", "/bin/sh -c 'echo run >>/var/lib/probe-dep'", ""), 0o644)
	// The shape of the k0s drop-in, on a stand-in.
	n.WriteFile("/etc/systemd/system/probe-dep.service.d/10-order.conf", []byte("[Unit]\nAfter=probe-ok.service\nRequires=probe-ok.service\n"), 0o644)

	key, peer := fixture.GenKey(t), fixture.GenKey(t)
	port, priv := 51820, secret.NewValue(key.String())
	cfg := &schema.Config{Role: schema.RoleWorker, WireGuard: []schema.WireGuard{{
		Name: "wg0", Address: schema.AddressList{"10.66.0.1/24"}, ListenPort: &port, NodeAddress: true, PrivateKey: &priv,
		Peers: []schema.Peer{{PublicKey: peer.PublicKey().String(), AllowedIPs: []string{"10.66.0.2/32"}}},
	}}}
	step, err := render.RenderWireGuard(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range step.Files {
		if strings.HasPrefix(f.Path, "/etc/wireguard/") {
			n.MkdirAll("/etc/wireguard", 0o700)
			n.WriteFile(f.Path, f.Content, f.Mode)
		}
	}

	n.Boot()
	t.Cleanup(n.Shutdown)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sd, err := bus.ConnectBus(ctx, fmt.Sprintf("/proc/%d/root/run/dbus/system_bus_socket", n.init))
	if err != nil {
		t.Fatal(err)
	}
	defer sd.Close()

	if err := sd.StartAndWait(ctx, "probe-ok.service"); err != nil {
		t.Errorf("starting probe-ok: %v", err)
	}
	if s, err := sd.UnitState(ctx, "probe-ok.service"); err != nil || s.Active != "active" || s.Sub != "exited" {
		t.Errorf("probe-ok state = %s (%v), want active/exited", s, err)
	}
	// A restart of a unit propagates through Requires= to the unit that
	// requires it: restarting wg-quick@<if> restarts k0s (docs/overlay.md).
	if err := sd.StartAndWait(ctx, "probe-dep.service"); err != nil {
		t.Errorf("starting probe-dep: %v", err)
	}
	if err := sd.RestartAndWait(ctx, "probe-ok.service"); err != nil {
		t.Errorf("restarting probe-ok: %v", err)
	}
	// The dependent's own job runs after the one waited for (After=).
	runs := 0
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if runs = strings.Count(n.ReadFile("/var/lib/probe-dep"), "run"); runs >= 2 {
			break
		}
	}
	if runs != 2 {
		t.Errorf("probe-dep ran %d times; want 2: started, then restarted with the unit it requires", runs)
	}

	err = sd.StartAndWait(ctx, "probe-fail.service")
	var job *systemd.JobError
	if !errors.As(err, &job) || job.Result != "failed" || !strings.Contains(err.Error(), "journalctl -u probe-fail.service") {
		t.Errorf("starting probe-fail: %v; want a failed job naming the unit and the journal", err)
	}
	if s, _ := sd.UnitState(ctx, "probe-fail.service"); s.Active != "failed" {
		t.Errorf("probe-fail state = %s, want failed", s)
	}

	start := time.Now()
	if err := sd.QueueStart(ctx, "probe-slow.service"); err != nil {
		t.Fatal(err)
	}
	queued := time.Since(start)
	// Returned before the 30 s start finished: the job may not have begun yet
	// (inactive, job queued) or be running (activating), never done.
	if s, _ := sd.UnitState(ctx, "probe-slow.service"); s.Active != "activating" && s.Active != "inactive" {
		t.Errorf("probe-slow state right after the queued start = %s (queueing took %v), want inactive or activating: the start was waited for", s, queued)
	}
	// And the queued job does run.
	state := ""
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if s, _ := sd.UnitState(ctx, "probe-slow.service"); s.Active == "activating" {
			state = s.Active
			break
		}
	}
	if state != "activating" {
		t.Errorf("the queued start of probe-slow never ran (not activating within 10s)")
	}

	if behind, err := sd.NeedsReload(ctx, "probe-ok.service"); err != nil || behind {
		t.Errorf("probe-ok before any change: needs a reload %v (%v), want false", behind, err)
	}
	n.WriteFile("/etc/systemd/system/probe-ok.service.d/10-reload.conf", []byte("[Unit]\nDescription=probe reloaded\n"), 0o644)
	if d := n.Show("probe-ok.service", "Description")["Description"]; d != "probe ok" {
		t.Fatalf("negative control: the drop-in counted before daemon-reload (Description=%q)", d)
	}
	if behind, err := sd.NeedsReload(ctx, "probe-fail.service", "probe-ok.service"); err != nil || !behind {
		t.Errorf("probe-ok loaded, then given a drop-in: needs a reload %v (%v), want true", behind, err)
	}
	// The first boot's case: a unit nothing loaded yet, written with its
	// drop-in after systemd started, is loaded by the question from the
	// disk as it is, and needs no reload to count the drop-in.
	n.WriteFile("/etc/systemd/system/probe-late.service", oneshot("probe late", "/bin/true", ""), 0o644)
	n.WriteFile("/etc/systemd/system/probe-late.service.d/10-late.conf", []byte("[Unit]\nDescription=probe late, with its drop-in\n"), 0o644)
	if behind, err := sd.NeedsReload(ctx, "probe-late.service"); err != nil || behind {
		t.Errorf("probe-late, loaded after its files were written: needs a reload %v (%v), want false", behind, err)
	}
	if d := n.Show("probe-late.service", "Description")["Description"]; d != "probe late, with its drop-in" {
		t.Errorf("probe-late without a reload: Description = %q, want the drop-in's", d)
	}
	if err := sd.DaemonReload(ctx); err != nil {
		t.Fatal(err)
	}
	if d := n.Show("probe-ok.service", "Description")["Description"]; d != "probe reloaded" {
		t.Errorf("after daemon-reload, Description = %q, want the drop-in's", d)
	}
	if behind, err := sd.NeedsReload(ctx, "probe-ok.service"); err != nil || behind {
		t.Errorf("probe-ok after daemon-reload: needs a reload %v (%v), want false", behind, err)
	}

	if err := sd.StartAndWait(ctx, "wg-quick@wg0.service"); err != nil {
		t.Fatalf("starting wg-quick@wg0 with the rendered file: %v\n%s", err, n.JournalText(n.BootID))
	}
	if got := strings.TrimSpace(n.MustExec("wg", "show", "wg0", "public-key")); got != key.PublicKey().String() {
		t.Errorf("wg0 public key = %s, want %s", got, key.PublicKey())
	}
	err = sd.StartAndWait(ctx, "wg-quick@wgmissing.service")
	if !errors.As(err, &job) || !strings.Contains(err.Error(), "journalctl -u wg-quick@wgmissing.service") {
		t.Errorf("starting wg-quick without a file: %v; want a failed job naming the unit", err)
	}
}
