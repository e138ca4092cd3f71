package lab

import (
	"testing"
	"time"
)

// threeControllers is the smallest etcd quorum that survives a member's
// loss, and a worker.
func threeControllers() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "c1", Role: "controller"},
		{Name: "c2", Role: "controller"},
		{Name: "c3", Role: "controller+worker"},
		{Name: "w1", Role: "worker"},
	}}
}

// etcdVerdict brings the lab up with real etcd on the controllers
// (etcdUp) and returns the lab's verdict with etcd's checks added.
func etcdVerdict(t *testing.T, s *Scenario, promoteWait time.Duration, setup func(*etcdCluster)) (*Lab, *Verdict) {
	t.Helper()
	l, ec := etcdUp(t, s, promoteWait, setup)
	return l, ec.verdict(t, l)
}

// etcdUp brings the lab up with real etcd on the controllers and waits for
// its learners' promotion, at most promoteWait.
func etcdUp(t *testing.T, s *Scenario, promoteWait time.Duration, setup func(*etcdCluster)) (*Lab, *etcdCluster) {
	t.Helper()
	l := &Lab{}
	ec := useEtcd(t, l)
	if setup != nil {
		setup(ec)
	}
	l.Up(t, s)
	start := time.Now()
	err := ec.settled(promoteWait)
	t.Logf("etcd: %d members started, every learner promoted in %v (%v)", len(ec.members), time.Since(start).Round(time.Millisecond), err)
	return l, ec
}

// verdict is the lab's verdict with etcd's checks added.
func (ec *etcdCluster) verdict(t testing.TB, l *Lab) *Verdict {
	t.Helper()
	v := l.Verdict(t)
	ec.check(t, l, v)
	if len(v.Problems) > 0 {
		ec.logTails(t)
	}
	return v
}

// logTails logs the end of each member's log, for a verdict that failed.
func (ec *etcdCluster) logTails(t testing.TB) {
	t.Helper()
	for _, p := range ec.members {
		t.Logf("%s: etcd's log ends:\n%s", p.ln.Name, tail(p.log))
	}
}

// TestEtcd: three controllers form one etcd cluster over the overlay, each
// a voter at the peer address the agent rendered, behind the guard.
func TestEtcd(t *testing.T) {
	t.Parallel()
	l, v := etcdVerdict(t, threeControllers(), 60*time.Second, nil)
	requirePass(t, l, v)
}

// A member whose peer certificate is not named for its peer address (the
// last to join, as etcd holds one learner at a time): the others refuse
// it, so it never starts as a member (etcd exits), and what is written
// elsewhere is not read through it.
func TestNegativeEtcdPeerCertName(t *testing.T) {
	t.Parallel()
	_, v := etcdVerdict(t, threeControllers(), 20*time.Second, func(ec *etcdCluster) {
		ec.peerName["c3"] = "10.10.0.250"
	})
	requireFail(t, v, "c1: etcd has no started member c3")
	requireFail(t, v, "c3: a write on c1 is not read")
}

// c1 without its guard: a neighbour on the underlay reaches etcd's peer
// port by sending to c1's overlay address through c1.
func TestNegativeEtcdGuardNotLoaded(t *testing.T) {
	t.Parallel()
	s := threeControllers()
	s.Node("c1").NoGuard = true
	_, v := etcdVerdict(t, s, 60*time.Second, nil)
	requireFail(t, v, "c1: the underlay reaches etcd's peer port")
}
