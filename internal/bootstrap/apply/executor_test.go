package apply

import (
	"context"
	"errors"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/apply/applytest"
	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

func testPlan() *plan.Plan {
	return &plan.Plan{Steps: []plan.Step{
		{Name: "one", Files: []plan.File{{Path: "/etc/a.conf", Mode: 0o600, DirMode: 0o700, Content: []byte("a\n")}},
			Actions: []plan.Action{{Kind: plan.ActionRestart, Unit: "a.service", OnChange: []string{"/etc/a.conf"}}, {Kind: plan.ActionStart, Unit: "a.service"}}},
		{Name: "two", Links: []plan.Link{{Path: "/etc/systemd/system/multi-user.target.wants/a.service", Target: "/usr/lib/systemd/system/a.service"}}},
		{Name: "three", Actions: []plan.Action{{Kind: plan.ActionQueueStart, Unit: "b.service"}}},
	}}
}

func TestExecutorRestartsOnlyOnChange(t *testing.T) {
	root := rootfs.New(t.TempDir())
	live := &applytest.RecordingLive{}
	e := &Executor{Root: root, Live: live, LiveUnderRoot: true}
	if _, err := e.Apply(context.Background(), testPlan()); err != nil {
		t.Fatal(err)
	}
	if want := "restart a.service\nstart a.service\nqueue-start b.service\n"; live.Text() != want {
		t.Errorf("first apply:\n%s\nwant:\n%s", live.Text(), want)
	}
	live2 := &applytest.RecordingLive{}
	steps, err := (&Executor{Root: root, Live: live2, LiveUnderRoot: true}).Apply(context.Background(), testPlan())
	if err != nil {
		t.Fatal(err)
	}
	if want := "start a.service\nqueue-start b.service\n"; live2.Text() != want {
		t.Errorf("second apply restarted:\n%s", live2.Text())
	}
	if steps[0].Files[0].Change != string(rootfs.Unchanged) || steps[1].Files[0].Change != string(rootfs.Unchanged) {
		t.Errorf("second apply rewrote: %+v", steps)
	}
}

func TestExecutorStopsAtFailure(t *testing.T) {
	root := rootfs.New(t.TempDir())
	boom := errors.New("boom")
	e := &Executor{Root: root, Live: &applytest.RecordingLive{Fail: "start a.service", Err: boom}, LiveUnderRoot: true}
	steps, err := e.Apply(context.Background(), testPlan())
	if !errors.Is(err, boom) {
		t.Fatalf("error %v", err)
	}
	if len(steps) != 3 || steps[0].Outcome != status.StepFailed || steps[1].Outcome != status.StepNotRun || steps[2].Outcome != status.StepNotRun {
		t.Errorf("steps %+v", steps)
	}
	if root.Exists("/etc/systemd/system/multi-user.target.wants/a.service") {
		t.Error("a step after the failure ran")
	}
}

func TestExecutorAfterWriteInterrupts(t *testing.T) {
	root := rootfs.New(t.TempDir())
	stop := errors.New("stop")
	e := &Executor{Root: root, AfterWrite: func(p string) error {
		if p == "/etc/a.conf" {
			return stop
		}
		return nil
	}}
	if _, err := e.Apply(context.Background(), testPlan()); !errors.Is(err, stop) {
		t.Fatalf("error %v", err)
	}
	if !root.Exists("/etc/a.conf") || root.Exists("/etc/systemd/system/multi-user.target.wants/a.service") {
		t.Error("interrupted at the wrong place")
	}
}
