package bootstrap

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/status"
)

// markerWatch records, for each live action, whether the marker was on disk
// when it ran.
type markerWatch struct {
	root  rootfs.Root
	lines []string
	fail  plan.ActionKind
}

func (m *markerWatch) Do(_ context.Context, a plan.Action) error {
	m.lines = append(m.lines, a.String()+" marker="+map[bool]string{true: "yes", false: "no"}[m.root.Exists(status.MarkerPath)])
	if a.Kind == m.fail {
		return errors.New("the bus went away")
	}
	return nil
}

func TestK0sStartIsQueuedLastAfterTheMarker(t *testing.T) {
	root := newDemoRoot(t)
	o := demoOptions(root, nil)
	w := &markerWatch{root: root}
	o.Live, o.LiveUnderRoot = w, true
	if _, err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	last := w.lines[len(w.lines)-1]
	if last != "queue-start k0scontroller.service marker=yes" {
		t.Errorf("last action %q, want the k0s start queued once the marker is written; all:\n%s", last, strings.Join(w.lines, "\n"))
	}
	for _, l := range w.lines[:len(w.lines)-1] {
		if strings.HasSuffix(l, "marker=yes") {
			t.Errorf("%q ran after the marker; only the k0s start may", l)
		}
	}
}

func TestFailedK0sStartWithdrawsTheMarker(t *testing.T) {
	root := newDemoRoot(t)
	o := demoOptions(root, nil)
	o.Live, o.LiveUnderRoot = &markerWatch{root: root, fail: plan.ActionQueueStart}, true
	st, err := Run(context.Background(), o)
	if err == nil || !strings.Contains(err.Error(), "the bus went away") || st.Outcome != status.Failed {
		t.Fatalf("want the failed start reported, got %v (%s)", err, st.Outcome)
	}
	if root.Exists(status.MarkerPath) {
		t.Error("the marker says provisioned although k0s was never started")
	}
	if !root.Exists(status.AppliedPath) {
		t.Error("the record is gone; only the marker is withdrawn")
	}
	// The next boot runs the agent again and converges.
	o = demoOptions(root, nil)
	w := &markerWatch{root: root}
	o.Live, o.LiveUnderRoot = w, true
	if st, err := Run(context.Background(), o); err != nil || st.Outcome != status.Provisioned {
		t.Fatalf("re-run: %v (%s)", err, st.Outcome)
	}
	if !root.Exists(status.MarkerPath) || !strings.HasPrefix(w.lines[len(w.lines)-1], "queue-start") {
		t.Errorf("re-run did not provision and start k0s:\n%s", strings.Join(w.lines, "\n"))
	}
}

func TestK0sUnitStartsOnlyOnAProvisionedNode(t *testing.T) {
	root := provisionedDemo(t)
	dropIn, err := root.ReadFile(render.K0sAgentDropInPath("k0scontroller.service"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"After=corium-agent.service\n", "ConditionPathExists=" + status.MarkerPath + "\n"} {
		if !strings.Contains(string(dropIn), want) {
			t.Errorf("k0s drop-in lacks %q:\n%s", want, dropIn)
		}
	}
}
