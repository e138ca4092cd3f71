package bootstrap

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/status"
	"github.com/corium/corium-agent/internal/status/store"
)

// A run cut off after it began (its record left on disk) is reported by
// every later run until one of them has changed the node itself: a run that
// stops before its first change (a secret it cannot read) leaves the
// record, since what the cut run left half done is still there; the run
// that finishes removes it, and the one after reports nothing.
func TestACutRunIsReportedUntilARunFinishes(t *testing.T) {
	root := newDemoRoot(t)
	cut := time.Date(2026, 3, 1, 9, 14, 2, 0, time.UTC)
	if err := store.BeginRun(root, "apply", cut); err != nil {
		t.Fatal(err)
	}
	key, err := root.ReadFile("/run/corium/secrets/wg0.key")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := root.Remove("/run/corium/secrets/wg0.key"); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	st, err := Run(context.Background(), demoOptions(root, &log))
	if err == nil || st.Unfinished == nil || !st.Unfinished.StartedAt.Equal(cut) || !root.Exists(status.RunPath) {
		t.Fatalf("a run stopped before its first change: err %v, unfinished %+v, record kept %v", err, st.Unfinished, root.Exists(status.RunPath))
	}
	if !strings.Contains(log.String(), "an earlier run did not finish") {
		t.Errorf("the log does not say the earlier run was cut:\n%s", log.String())
	}

	if _, err := root.WriteFile("/run/corium/secrets/wg0.key", key, 0o600, 0o700); err != nil {
		t.Fatal(err)
	}
	st, err = Run(context.Background(), demoOptions(root, nil))
	if err != nil || st.Unfinished == nil || root.Exists(status.RunPath) {
		t.Fatalf("the finishing run: err %v, unfinished %+v, record left %v", err, st.Unfinished, root.Exists(status.RunPath))
	}
	if st, err = Run(context.Background(), demoOptions(root, nil)); err != nil || st.Unfinished != nil {
		t.Errorf("the run after a finished one: err %v, unfinished %+v", err, st.Unfinished)
	}
}
