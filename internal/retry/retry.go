package retry

import (
	"context"
	"fmt"
	"time"
)

// Defaults of a Policy. The base is two seconds rather than a few
// milliseconds because the loop mostly waits on servers under load and on
// other units writing files at boot, neither of which answers faster for
// being asked more: in TestFleetSimulation a fleet of 200 against a 20/s
// limiter stays under 4x the requests it needs with this base, with or
// without Retry-After, where a 1s base costs about 4.1x without it.
const (
	DefaultBase = 2 * time.Second
	DefaultCap  = 30 * time.Second
)

// Policy says how long and how often Do retries.
type Policy struct {
	// Wait is how long "not there yet" is retried; 0 means one attempt.
	Wait time.Duration
	// Base is the first backoff step (DefaultBase when 0); each step doubles
	// up to Cap (DefaultCap when 0).
	Base, Cap time.Duration
	// Report, when set, is told about every failed attempt.
	Report func(Attempt)
	// Clock and Jitter default to the wall clock and uniform randomness.
	Clock  Clock
	Jitter Jitter
}

// Attempt is one failed try, as reported to Policy.Report.
type Attempt struct {
	// N counts attempts from 1.
	N int
	// Err is what the attempt returned.
	Err error
	// Retrying is false when this was the last attempt.
	Retrying bool
	// Next is the delay before the next attempt (when Retrying).
	Next time.Duration
	// Elapsed is the time since the first attempt started.
	Elapsed time.Duration
}

// Do calls attempt until it succeeds, returns an error not marked NotYet,
// the wait runs out (a *GaveUpError) or ctx is done (an error wrapping
// ctx.Err()). The attempt gets ctx so it can stop at once too.
//
// Between attempts it sleeps a full-jitter delay, uniform in [0, step), where
// step doubles from Base up to Cap; with full jitter, a fleet that failed
// together does not come back together. A server-given delay is added in front
// of the jitter, and the jitter window is then at least as wide as that delay,
// because a server that told a whole fleet "after 1s" would otherwise see it
// return in the same instant. The last sleep is cut to end at the deadline,
// so one final attempt happens there and the loop overruns the wait by at most
// one attempt.
func Do(ctx context.Context, p Policy, attempt func(context.Context) error) error {
	p = p.withDefaults()
	clock, report := p.Clock, p.Report

	start := clock.Now()
	deadline := start.Add(p.Wait)
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return &StoppedError{Attempts: n - 1, Err: err}
		}
		err := attempt(ctx)
		if err == nil {
			return nil
		}
		now := clock.Now()
		a := Attempt{N: n, Err: err, Elapsed: now.Sub(start)}
		if ctxErr := ctx.Err(); ctxErr != nil {
			report(a)
			return &StoppedError{Attempts: n, Err: ctxErr}
		}
		transient, after := IsNotYet(err)
		if !transient {
			report(a)
			return err
		}
		remaining := deadline.Sub(now)
		if remaining <= 0 {
			report(a)
			return &GaveUpError{Attempts: n, Wait: p.Wait, Last: err}
		}
		if after > remaining {
			report(a)
			return &GaveUpError{Attempts: n, Wait: p.Wait, RetryAfter: after, Last: err}
		}
		a.Retrying, a.Next = true, min(p.delay(n, after), remaining)
		report(a)
		if err := clock.Sleep(ctx, a.Next); err != nil {
			return &StoppedError{Attempts: n, Err: err}
		}
	}
}

func (p Policy) withDefaults() Policy {
	if p.Clock == nil {
		p.Clock = RealClock{}
	}
	if p.Jitter == nil {
		p.Jitter = uniform
	}
	if p.Base <= 0 {
		p.Base = DefaultBase
	}
	if p.Cap <= 0 {
		p.Cap = DefaultCap
	}
	if p.Report == nil {
		p.Report = func(Attempt) {}
	}
	return p
}

// delay is the sleep after failed attempt n, given the server's delay.
func (p Policy) delay(n int, after time.Duration) time.Duration {
	return after + p.Jitter(max(p.step(n), after))
}

// step is the backoff window after attempt n: Base doubled n-1 times, at
// most Cap.
func (p Policy) step(n int) time.Duration {
	s := p.Base
	for i := 1; i < n && s < p.Cap; i++ {
		s *= 2
	}
	return min(s, p.Cap)
}

// GaveUpError says the wait ran out while the answer was still "not there
// yet". It unwraps to the last attempt's error.
type GaveUpError struct {
	Attempts int
	Wait     time.Duration
	// RetryAfter is set when the stop came early because the server asked
	// for a delay reaching past the wait.
	RetryAfter time.Duration
	Last       error
}

func (e *GaveUpError) Error() string {
	switch {
	case e.Wait == 0:
		return fmt.Sprintf("not there yet on the only attempt (no wait set): %v", e.Last)
	case e.RetryAfter > 0:
		return fmt.Sprintf("server asked to retry after %s, past the wait of %s (%s): %v",
			e.RetryAfter, e.Wait, Count(e.Attempts), e.Last)
	default:
		return fmt.Sprintf("still not there after %s (%s): %v", e.Wait, Count(e.Attempts), e.Last)
	}
}

func (e *GaveUpError) Unwrap() error { return e.Last }

// StoppedError says the context ended the loop (shutdown). It unwraps to the
// context's error, so errors.Is(err, context.Canceled) holds.
type StoppedError struct {
	// Attempts made before the stop.
	Attempts int
	Err      error
}

func (e *StoppedError) Error() string {
	if e.Attempts == 0 {
		return fmt.Sprintf("stopped before attempt 1: %v", e.Err)
	}
	return fmt.Sprintf("stopped after %s: %v", Count(e.Attempts), e.Err)
}

func (e *StoppedError) Unwrap() error { return e.Err }

// Count says "1 attempt", "3 attempts".
func Count(attempts int) string {
	if attempts == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", attempts)
}
