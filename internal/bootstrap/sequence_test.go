package bootstrap

import (
	"context"
	"errors"
	"net/netip"
	"strings"
	"testing"

	"github.com/corium/corium-agent/internal/hostfacts"
	"github.com/corium/corium-agent/internal/status"
)

// apply and plan are one sequence: the same input ends the same way in
// both, whatever goes wrong on the way.
func TestApplyAndPlanAgree(t *testing.T) {
	t.Run("an unreadable applied record is a refusal", func(t *testing.T) {
		root := provisionedDemo(t)
		if _, err := root.WriteFile(status.AppliedPath, []byte("role: [\n"), 0o600, 0o700); err != nil {
			t.Fatal(err)
		}
		o := demoOptions(root, nil)
		o.Again = true
		st, applyErr := Run(context.Background(), o)
		rep, planErr := Plan(context.Background(), o)
		if st.Outcome != status.Refused || len(st.Refusals) != 1 || applyErr == nil {
			t.Errorf("apply: outcome %s, refusals %v, %v", st.Outcome, st.Refusals, applyErr)
		}
		if len(rep.Refusals) != 1 || rep.Refusals[0] != st.Refusals[0] || planErr == nil {
			t.Errorf("plan: refusals %v, %v; want apply's %v", rep.Refusals, planErr, st.Refusals)
		}
	})
	t.Run("the host's network cannot be read", func(t *testing.T) {
		for _, again := range []bool{false, true} {
			root := newDemoRoot(t)
			if again {
				root = provisionedDemo(t)
			}
			o := demoOptions(root, nil)
			o.Again, o.FactsFile = again, ""
			o.GatherFacts = func([]netip.Addr) (*hostfacts.Facts, error) { return nil, errors.New("netlink is gone") }
			_, applyErr := Run(context.Background(), o)
			_, planErr := Plan(context.Background(), o)
			for name, err := range map[string]error{"apply": applyErr, "plan": planErr} {
				if err == nil || !strings.Contains(err.Error(), "netlink is gone") {
					t.Errorf("again=%v: %s ended %v, want the facts error", again, name, err)
				}
			}
		}
	})
}
