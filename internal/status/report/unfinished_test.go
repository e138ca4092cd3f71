package report

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
)

// A run that found the one before it cut off says so under the last run,
// in the text and the JSON alike.
func TestLastRunSaysTheOneBeforeDidNotFinish(t *testing.T) {
	root := rootfs.New(t.TempDir())
	cut := time.Date(2026, 3, 1, 9, 14, 2, 0, time.UTC)
	st := &status.Status{Command: "apply", Outcome: status.Failed, Error: "starting k0sworker.service: timed out",
		Unfinished: &status.Unfinished{Command: "apply", StartedAt: cut}}
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	r := Inspect(context.Background(), Options{Root: root})
	if r.LastRun == nil || r.LastRun.Unfinished == nil || !r.LastRun.Unfinished.StartedAt.Equal(cut) {
		t.Fatalf("last run %+v", r.LastRun)
	}
	want := "  before it: apply started at 2026-03-01T09:14:02Z and did not finish (the power was cut or the agent was killed)"
	if text := textOf(r); !strings.Contains(text, want) {
		t.Errorf("the text lacks %q:\n%s", want, text)
	}

	st.Unfinished = nil
	if err := store.Write(root, st); err != nil {
		t.Fatal(err)
	}
	if text := textOf(Inspect(context.Background(), Options{Root: root})); strings.Contains(text, "before it:") {
		t.Errorf("a run that found nothing cut off says otherwise:\n%s", text)
	}
}
