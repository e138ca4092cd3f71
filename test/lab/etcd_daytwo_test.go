package lab

import (
	"testing"
	"time"
)

// twoControllers is the first boot of the day-two scenario: two etcd
// members (a quorum of both) and a worker; day two adds c3.
func twoControllers() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "c1", Role: "controller"},
		{Name: "c2", Role: "controller+worker"},
		{Name: "w1", Role: "worker"},
	}}
}

// addController is day two for the control plane: c3 added to the
// scenario, and with again apply --again on the nodes already up first
// (Lab.Again), without it the new node alone. c3 joins etcd as k0s joins
// it (a learner added on a member, --initial-cluster-state existing,
// promoted); it waits for the promotion, at most promoteWait.
func addController(t *testing.T, l *Lab, ec *etcdCluster, again bool, promoteWait time.Duration) {
	t.Helper()
	l.S.Nodes = append(l.S.Nodes, &Node{Name: "c3", Role: "controller"})
	start := time.Now()
	if again {
		l.Again(t)
	} else {
		Build(t, l.S)
		l.addNodes(t, l.notUp())
	}
	err := ec.settled(promoteWait)
	t.Logf("day two: c3 added, every learner promoted in %v (%v)", time.Since(start).Round(time.Millisecond), err)
}

// etcdChecks is etcd's checks alone, without the rest of the lab's verdict.
func etcdChecks(t *testing.T, l *Lab, ec *etcdCluster) *Verdict {
	t.Helper()
	v := &Verdict{}
	ec.check(t, l, v)
	if len(v.Problems) > 0 {
		ec.logTails(t)
	}
	return v
}

// TestEtcdDayTwo: two controllers' etcd passes its checks; a third
// controller added on day two, with apply --again on the nodes already up,
// joins it and is a voter at its overlay address, the three read each
// other's writes, and the lab's whole verdict passes.
func TestEtcdDayTwo(t *testing.T) {
	t.Parallel()
	l, ec := etcdUp(t, twoControllers(), 30*time.Second, nil)
	requirePass(t, l, etcdChecks(t, l, ec))
	addController(t, l, ec, true, 30*time.Second)
	requirePass(t, l, ec.verdict(t, l))
	if n := len(ec.members); n != 3 {
		t.Fatalf("etcd has %d members, not 3", n)
	}
}

// The third controller added without apply --again on the others: they
// neither peer with it nor let it through their guard, so it is added as a
// learner it never becomes: its etcd reaches no member and exits, and
// nothing written elsewhere is read through it.
func TestNegativeEtcdDayTwoWithoutAgain(t *testing.T) {
	t.Parallel()
	l, ec := etcdUp(t, twoControllers(), 30*time.Second, nil)
	addController(t, l, ec, false, 5*time.Second)
	v := etcdChecks(t, l, ec)
	requireFail(t, v, "c1: etcd has no started member c3")
	requireFail(t, v, "c3: a write on c1 is not read")
}
