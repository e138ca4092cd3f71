package systemdtest

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/systemd"
)

func TestFakeRecordsAndFails(t *testing.T) {
	ctx := context.Background()
	boom := &systemd.JobError{Verb: "starting", Unit: "wg-quick@wg1.service", Result: "failed"}
	f := &Fake{Fail: map[string]error{"start wg-quick@wg1.service": boom}}
	_ = f.DaemonReload(ctx)
	if err := f.StartAndWait(ctx, "wg-quick@wg0.service"); err != nil {
		t.Fatal(err)
	}
	if err := f.StartAndWait(ctx, "wg-quick@wg1.service"); !errors.Is(err, systemd.ErrJob) {
		t.Fatalf("got %v, want the configured failure", err)
	}
	_ = f.QueueStart(ctx, "k0scontroller.service")
	s0, _ := f.UnitState(ctx, "wg-quick@wg0.service")
	s1, _ := f.UnitState(ctx, "wg-quick@wg1.service")
	if s0.Active != "active" || s1.Active != "inactive" {
		t.Errorf("states: wg0 %s, wg1 %s; want the started one active and the failed one inactive", s0, s1)
	}
	want := strings.Join([]string{
		"daemon-reload",
		"start wg-quick@wg0.service",
		"start wg-quick@wg1.service",
		"queue-start k0scontroller.service",
		"state wg-quick@wg0.service",
		"state wg-quick@wg1.service",
	}, "\n")
	if f.Text() != want {
		t.Errorf("calls:\n%s\nwant:\n%s", f.Text(), want)
	}
}

func TestFakeReloadIsPlain(t *testing.T) {
	ctx := context.Background()
	f := &Fake{}
	if err := f.ReloadAndWait(ctx, "wg-quick@wg0.service"); err == nil || !strings.Contains(err.Error(), "not active") {
		t.Errorf("reload of an inactive unit: %v, want refused", err)
	}
	if s, _ := f.UnitState(ctx, "wg-quick@wg0.service"); s.Active == "active" {
		t.Error("a refused reload started the unit")
	}
	_ = f.StartAndWait(ctx, "wg-quick@wg0.service")
	if err := f.ReloadAndWait(ctx, "wg-quick@wg0.service"); err != nil {
		t.Errorf("reload of an active unit: %v", err)
	}
	_ = f.StopAndWait(ctx, "wg-quick@wg0.service")
	if s, _ := f.UnitState(ctx, "wg-quick@wg0.service"); s.Active != "inactive" {
		t.Errorf("state after stop: %s", s)
	}
	want := "reload wg-quick@wg0.service\nstate wg-quick@wg0.service\nstart wg-quick@wg0.service\nreload wg-quick@wg0.service\n" +
		"stop wg-quick@wg0.service\nstate wg-quick@wg0.service"
	if f.Text() != want {
		t.Errorf("calls:\n%s\nwant:\n%s", f.Text(), want)
	}
}
