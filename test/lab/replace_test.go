package lab

import (
	"strconv"
	"sync/atomic"
	"testing"
)

// TestReplaceRunsInPlaceOfStandIn holds the hook a real process plugs into:
// the Starter runs on each node of the service's role instead of the
// stand-in, and the pairs reach what it started.
func TestReplaceRunsInPlaceOfStandIn(t *testing.T) {
	t.Parallel()
	var started, accepted atomic.Int32
	l := &Lab{Replace: map[string]Starter{"kubelet": func(t testing.TB, ln *LabNode, svc Service) {
		started.Add(1)
		lis := ln.Listen(t, ":"+strconv.Itoa(svc.Port))
		go func() {
			for {
				c, err := lis.Accept()
				if err != nil {
					return
				}
				accepted.Add(1)
				_ = c.Close() // a real process does not answer with the node's name
			}
		}()
	}}}
	l.Up(t, smallPair())
	requirePass(t, l, l.Verdict(t))
	if started.Load() != 2 {
		t.Errorf("the kubelet's Starter ran on %d nodes, not c1 and w1", started.Load())
	}
	if accepted.Load() == 0 {
		t.Error("no pair reached what the Starter started")
	}
}
