package retry

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/testutil/fixture"
)

// widest always picks the end of the jitter window: the worst case for a
// deadline.
func widest(n time.Duration) time.Duration { return max(n-1, 0) }

var errMissing = errors.New("missing")

func TestSucceedsAfterNotYet(t *testing.T) {
	clock := fixture.NewClock()
	calls := 0
	var reports []Attempt
	err := Do(context.Background(), Policy{Wait: time.Minute, Clock: clock, Jitter: widest, Report: func(a Attempt) { reports = append(reports, a) }},
		func(context.Context) error {
			calls++
			if calls < 4 {
				return NotYet(errMissing)
			}
			return nil
		})
	if err != nil {
		t.Fatalf("Do: %v", err)
	}
	if calls != 4 {
		t.Fatalf("attempts = %d, want 4", calls)
	}
	if len(reports) != 3 {
		t.Fatalf("reports = %d, want 3", len(reports))
	}
	for i, r := range reports {
		if r.N != i+1 || !r.Retrying || !errors.Is(r.Err, errMissing) {
			t.Errorf("report %d = %+v", i, r)
		}
	}
	// Windows 2s, 4s, 8s from the default base, picked at their far end.
	want := []time.Duration{2*time.Second - 1, 4*time.Second - 1, 8*time.Second - 1}
	if fmt.Sprint(clock.Sleeps()) != fmt.Sprint(want) {
		t.Fatalf("sleeps = %v, want %v", clock.Sleeps(), want)
	}
}

func TestBackoffDoublesUpToCap(t *testing.T) {
	var windows []time.Duration
	jitter := func(n time.Duration) time.Duration { windows = append(windows, n); return 0 }
	calls := 0
	_ = Do(context.Background(), Policy{Wait: time.Hour, Base: 250 * time.Millisecond, Cap: 3 * time.Second, Clock: fixture.NewClock(), Jitter: jitter},
		func(context.Context) error {
			calls++
			if calls == 8 {
				return nil
			}
			return NotYet(errMissing)
		})
	want := "[250ms 500ms 1s 2s 3s 3s 3s]"
	if fmt.Sprint(windows) != want {
		t.Fatalf("jitter windows = %v, want %s", windows, want)
	}
}

func TestFatalStopsAtOnce(t *testing.T) {
	clock := fixture.NewClock()
	calls := 0
	fatal := errors.New("401 unauthorized")
	err := Do(context.Background(), Policy{Wait: time.Hour, Clock: clock}, func(context.Context) error {
		calls++
		return fatal
	})
	if !errors.Is(err, fatal) || calls != 1 || len(clock.Sleeps()) != 0 {
		t.Fatalf("err=%v calls=%d sleeps=%v; want the fatal error after one attempt and no sleep", err, calls, clock.Sleeps())
	}
}

func TestNoWaitMeansOneAttempt(t *testing.T) {
	calls := 0
	err := Do(context.Background(), Policy{Clock: fixture.NewClock()}, func(context.Context) error {
		calls++
		return NotYet(errMissing)
	})
	var gaveUp *GaveUpError
	if !errors.As(err, &gaveUp) || calls != 1 || !errors.Is(err, errMissing) {
		t.Fatalf("err=%v calls=%d; want a GaveUpError after one attempt", err, calls)
	}
	if !strings.Contains(err.Error(), "only attempt") {
		t.Fatalf("message %q does not say there was one attempt", err)
	}
}

func TestDeadlineRespected(t *testing.T) {
	for _, wait := range []time.Duration{time.Second, 10 * time.Second, 95 * time.Second, time.Hour} {
		clock := fixture.NewClock()
		start := clock.Now()
		var last time.Time
		err := Do(context.Background(), Policy{Wait: wait, Clock: clock, Jitter: widest}, func(context.Context) error {
			last = clock.Now()
			return NotYet(errMissing)
		})
		var gaveUp *GaveUpError
		if !errors.As(err, &gaveUp) {
			t.Fatalf("wait %s: err = %v, want GaveUpError", wait, err)
		}
		// The last attempt happens exactly at the deadline, never later.
		if got := last.Sub(start); got != wait {
			t.Errorf("wait %s: last attempt at %s, want at the deadline", wait, got)
		}
		if gaveUp.Attempts < 2 || gaveUp.Wait != wait {
			t.Errorf("wait %s: %+v", wait, gaveUp)
		}
	}
}

func TestRetryAfterIsAFloor(t *testing.T) {
	clock := fixture.NewClock()
	calls := 0
	err := Do(context.Background(), Policy{Wait: time.Minute, Clock: clock, Jitter: func(time.Duration) time.Duration { return 0 }},
		func(context.Context) error {
			calls++
			if calls < 3 {
				return NotYetAfter(errMissing, 7*time.Second)
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if want := "[7s 7s]"; fmt.Sprint(clock.Sleeps()) != want {
		t.Fatalf("sleeps = %v, want %s", clock.Sleeps(), want)
	}
}

func TestRetryAfterWidensJitter(t *testing.T) {
	var windows []time.Duration
	jitter := func(n time.Duration) time.Duration { windows = append(windows, n); return n / 2 }
	clock := fixture.NewClock()
	calls := 0
	_ = Do(context.Background(), Policy{Wait: time.Minute, Base: 100 * time.Millisecond, Clock: clock, Jitter: jitter},
		func(context.Context) error {
			calls++
			if calls == 2 {
				return nil
			}
			return NotYetAfter(errMissing, 5*time.Second)
		})
	if fmt.Sprint(windows) != "[5s]" || fmt.Sprint(clock.Sleeps()) != "[7.5s]" {
		t.Fatalf("windows %v sleeps %v; want a 5s window after the 5s floor", windows, clock.Sleeps())
	}
}

func TestRetryAfterPastDeadlineGivesUp(t *testing.T) {
	clock := fixture.NewClock()
	calls := 0
	err := Do(context.Background(), Policy{Wait: 10 * time.Second, Clock: clock}, func(context.Context) error {
		calls++
		return NotYetAfter(errMissing, time.Minute)
	})
	var gaveUp *GaveUpError
	if !errors.As(err, &gaveUp) || gaveUp.RetryAfter != time.Minute || calls != 1 || len(clock.Sleeps()) != 0 {
		t.Fatalf("err=%v calls=%d sleeps=%v", err, calls, clock.Sleeps())
	}
	if !strings.Contains(err.Error(), "retry after 1m0s") {
		t.Fatalf("message %q does not name the server's delay", err)
	}
}

func TestCancelStopsSleepAtOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sleeping := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Do(ctx, Policy{Wait: time.Hour, Base: time.Hour, Cap: time.Hour,
			Jitter: widest,
			Report: func(Attempt) { close(sleeping) }},
			func(context.Context) error { return NotYet(errMissing) })
	}()
	<-sleeping
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Do still sleeping 5s after cancellation (the sleep was an hour)")
	}
}

func TestCancelDuringAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	err := Do(ctx, Policy{Wait: time.Hour, Clock: fixture.NewClock()}, func(ctx context.Context) error {
		calls++
		cancel()
		<-ctx.Done()
		return NotYet(ctx.Err())
	})
	var stopped *StoppedError
	if !errors.Is(err, context.Canceled) || calls != 1 || !errors.As(err, &stopped) || stopped.Attempts != 1 {
		t.Fatalf("err=%v calls=%d", err, calls)
	}
	if err.Error() != "stopped after 1 attempt: context canceled" {
		t.Fatalf("message %q", err)
	}
	// Cancelled before anything was tried: no attempt at all.
	calls = 0
	err = Do(ctx, Policy{Wait: time.Hour}, func(context.Context) error { calls++; return nil })
	if !errors.As(err, &stopped) || stopped.Attempts != 0 || calls != 0 {
		t.Fatalf("err=%v calls=%d", err, calls)
	}
}

func TestIsNotYet(t *testing.T) {
	wrapped := fmt.Errorf("reading x: %w", NotYetAfter(errMissing, 3*time.Second))
	ok, after := IsNotYet(wrapped)
	if !ok || after != 3*time.Second || !errors.Is(wrapped, errMissing) {
		t.Fatalf("IsNotYet(wrapped) = %v, %v", ok, after)
	}
	if ok, _ := IsNotYet(errMissing); ok {
		t.Fatal("a plain error is not transient")
	}
	if NotYet(nil) != nil || NotYetAfter(nil, time.Second) != nil {
		t.Fatal("marking nil must stay nil")
	}
}
