package lab

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// Verdict is what the lab's checks found wrong, one line a problem. The
// checks never fail the test themselves, so that a negative control can
// assert that its mistake is found and named.
type Verdict struct {
	mu       sync.Mutex
	Problems []string
	// Checked counts what the checks tried (pair connections, handshakes,
	// probes), so a test can tell a verdict of nothing checked from a pass.
	Checked int
}

func (v *Verdict) fail(format string, args ...any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.Problems = append(v.Problems, fmt.Sprintf(format, args...))
}

func (v *Verdict) count() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.Checked++
}

func (v *Verdict) String() string {
	p := append([]string(nil), v.Problems...)
	sort.Strings(p)
	return strings.Join(p, "\n")
}

// Verdict runs every check of the lab: the pairs over the overlay, a
// packet of each sender's full size between them (fullsize_test.go), then
// the open network's view of every node.
func (l *Lab) Verdict(t testing.TB) *Verdict {
	t.Helper()
	v := &Verdict{}
	start := time.Now()
	l.prime(t)
	primed := time.Now()
	l.checkPairs(t, v)
	l.checkFullSize(t, v)
	l.checkHandshakes(t, v)
	l.checkVIP(t, v)
	paired := time.Now()
	l.scan(t, v)
	t.Logf("the verdict took %v: priming %v, pairs %v, scan %v", time.Since(start).Round(time.Millisecond),
		primed.Sub(start).Round(time.Millisecond), paired.Sub(primed).Round(time.Millisecond), time.Since(paired).Round(time.Millisecond))
	return v
}

// requirePass fails the test with the verdict's problems, if any.
func requirePass(t testing.TB, l *Lab, v *Verdict) {
	t.Helper()
	if len(v.Problems) > 0 {
		l.dump(t)
		t.Fatalf("the lab's verdict: %d problems (of %d checks):\n%s", len(v.Problems), v.Checked, v)
	}
	if v.Checked == 0 {
		t.Fatal("the lab checked nothing")
	}
	t.Logf("the lab's verdict: %d checks passed", v.Checked)
}

// requireFail fails the test unless the verdict has a problem holding
// every one of the words given: a negative control must fail, and fail for
// its reason.
func requireFail(t testing.TB, v *Verdict, words ...string) {
	t.Helper()
	for _, p := range v.Problems {
		all := true
		for _, w := range words {
			if !strings.Contains(p, w) {
				all = false
				break
			}
		}
		if all {
			t.Logf("the lab's verdict fails as it must (%d problems), e.g.:\n%s", len(v.Problems), p)
			return
		}
	}
	t.Fatalf("the lab's verdict has no problem with all of %q; it found %d:\n%s", words, len(v.Problems), v)
}

// dump logs each node's WireGuard state (wg show hides private keys), for
// a verdict that failed.
func (l *Lab) dump(t testing.TB) {
	t.Helper()
	for _, ln := range l.Nodes {
		out, _ := ln.Exec("wg", "show", "wg0")
		t.Logf("%s: wg show wg0:\n%s", ln.Name, out)
	}
}
