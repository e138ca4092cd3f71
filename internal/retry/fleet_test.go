package retry

import (
	"container/heap"
	"math/rand/v2"
	"testing"
	"time"
)

// simulateFleet boots nodes at the same instant against a server that
// answers the first perSecond requests of each second and asks the rest to
// come back after retryAfter; every node backs off with p's delays. It runs
// in virtual time, so it is exact and fast, and returns the requests made and
// when the last node got its answer.
func simulateFleet(p Policy, nodes, perSecond int, retryAfter time.Duration) (requests int, last time.Duration) {
	p = p.withDefaults()
	q := &events{}
	for i := range nodes {
		heap.Push(q, event{node: i, attempt: 1})
	}
	window, inWindow := time.Duration(-1), 0
	for q.Len() > 0 {
		e := heap.Pop(q).(event)
		requests++
		if w := e.at.Truncate(time.Second); w != window {
			window, inWindow = w, 0
		}
		inWindow++
		if inWindow <= perSecond {
			last = max(last, e.at)
			continue
		}
		heap.Push(q, event{at: e.at + p.delay(e.attempt, retryAfter), node: e.node, attempt: e.attempt + 1})
	}
	return requests, last
}

type event struct {
	at      time.Duration
	node    int
	attempt int
}

type events []event

func (q events) Len() int { return len(q) }
func (q events) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].node < q[j].node
}
func (q events) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *events) Push(x any)   { *q = append(*q, x.(event)) }
func (q *events) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

func seeded(seed uint64) Jitter {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	return func(n time.Duration) time.Duration {
		if n <= 0 {
			return 0
		}
		return time.Duration(r.Int64N(int64(n)))
	}
}

// TestFleetSimulation is the herd in virtual time, over many seeds: with the
// default policy a fleet of 200 against a 20/s limiter costs at most 4x the
// 200 requests it needs, whether or not the server sends Retry-After; in lock
// step (no jitter) it costs far more. The real-network herd is in package
// secret.
func TestFleetSimulation(t *testing.T) {
	const nodes, perSecond = 200, 20
	for _, ra := range []time.Duration{0, time.Second} {
		worst, worstLast := 0, time.Duration(0)
		for seed := range uint64(50) {
			n, last := simulateFleet(Policy{Jitter: seeded(seed)}, nodes, perSecond, ra)
			worst, worstLast = max(worst, n), max(worstLast, last)
		}
		lockstep, _ := simulateFleet(Policy{Jitter: func(time.Duration) time.Duration { return 0 }}, nodes, perSecond, max(ra, time.Second))
		t.Logf("Retry-After %s: worst of 50 seeds %d requests (%.2fx), last answer by %s; lock step %d requests (%.2fx)",
			ra, worst, float64(worst)/nodes, worstLast, lockstep, float64(lockstep)/nodes)
		if worst > 4*nodes {
			t.Errorf("Retry-After %s: %d requests, more than 4x the %d needed", ra, worst, nodes)
		}
		if lockstep <= 4*nodes {
			t.Errorf("lock step made only %d requests: the simulation cannot tell jitter from none", lockstep)
		}
		if worstLast > 2*time.Minute {
			t.Errorf("Retry-After %s: the last node waited %s", ra, worstLast)
		}
	}
}
