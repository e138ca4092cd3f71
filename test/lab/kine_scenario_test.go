package lab

import (
	"testing"
	"time"
)

// twoKineControllers is two controllers sharing one database through
// kine, and a worker.
func twoKineControllers() *Scenario {
	return &Scenario{Nodes: []*Node{
		{Name: "c1", Role: "controller"},
		{Name: "c2", Role: "controller+worker"},
		{Name: "w1", Role: "worker"},
	}}
}

// kineVerdict brings the lab up with real kine on the controllers against
// one PostgreSQL, the datasource carrying the password password returns
// (the database's, given), and returns the lab's verdict with kine's
// checks added. No output of the run may hold either password.
func kineVerdict(t *testing.T, s *Scenario, password func(db string) string) (*Lab, *Verdict) {
	t.Helper()
	Build(t, s)
	l := &Lab{}
	kc := useKine(t, l, s)
	pw := password(kc.db.password)
	kc.setDataSources(s, pw)
	l.Up(t, s)
	start := time.Now()
	v := l.Verdict(t)
	kc.check(t, l, v)
	t.Logf("the verdict with kine's checks took %v", time.Since(start).Round(time.Millisecond))
	if leaks := kc.leaks(v, kc.db.password, pw); len(leaks) > 0 {
		t.Fatalf("the database's password is in %v", leaks)
	}
	if len(v.Problems) > 0 {
		for _, p := range kc.members {
			t.Logf("%s: kine's log ends:\n%s", p.ln.Name, tail(p.log))
		}
	}
	return l, v
}

func sameSecret(db string) string { return db }

// TestKine: two controllers keep one datastore in PostgreSQL through kine,
// started with k0s's arguments and the datasource the agent rendered, its
// metrics port behind the guard.
func TestKine(t *testing.T) {
	t.Parallel()
	l, v := kineVerdict(t, twoKineControllers(), sameSecret)
	requirePass(t, l, v)
}

// c1 without its guard: a neighbour on the underlay reaches kine's
// metrics, which k0s has kine serve on every address.
func TestNegativeKineGuardNotLoaded(t *testing.T) {
	t.Parallel()
	s := twoKineControllers()
	s.Node("c1").NoGuard = true
	_, v := kineVerdict(t, s, sameSecret)
	requireFail(t, v, "c1: the underlay reaches kine's metrics port at 192.0.2.11:2380")
}

// A datasource whose password is not the database's: PostgreSQL refuses
// kine, which never serves.
func TestNegativeKineWrongPassword(t *testing.T) {
	t.Parallel()
	_, v := kineVerdict(t, twoKineControllers(), func(db string) string { return "not-" + db })
	requireFail(t, v, "c1: kine does not serve its etcd API: PostgreSQL refused the password")
	requireFail(t, v, "c2: kine does not serve its etcd API: PostgreSQL refused the password")
}
