package retry

import (
	"context"
	"math/rand/v2"
	"time"
)

// Clock is time as the loop sees it; tests replace it to run without waiting.
type Clock interface {
	Now() time.Time
	// Sleep waits d or until ctx is done, whichever comes first, and returns
	// ctx.Err() in the latter case.
	Sleep(ctx context.Context, d time.Duration) error
}

// RealClock is the wall clock.
type RealClock struct{}

func (RealClock) Now() time.Time { return time.Now() }

func (RealClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Jitter returns a duration in [0, n); nil in a Policy means uniform random.
type Jitter func(n time.Duration) time.Duration

func uniform(n time.Duration) time.Duration {
	if n <= 0 {
		return 0
	}
	return rand.N(n)
}
