package retry

import (
	"errors"
	"time"
)

// notYet marks an error as transient: the thing asked for may still appear.
type notYet struct {
	err   error
	after time.Duration
}

func (e *notYet) Error() string { return e.err.Error() }
func (e *notYet) Unwrap() error { return e.err }

// NotYet marks err as "not there yet": Do retries it until the deadline.
func NotYet(err error) error {
	if err == nil {
		return nil
	}
	return &notYet{err: err}
}

// NotYetAfter is NotYet with a server-given delay (Retry-After): the next
// attempt comes no sooner than after.
func NotYetAfter(err error, after time.Duration) error {
	if err == nil {
		return nil
	}
	return &notYet{err: err, after: max(after, 0)}
}

// IsNotYet reports whether err was marked by NotYet or NotYetAfter, and the
// server-given delay, if any.
func IsNotYet(err error) (bool, time.Duration) {
	var n *notYet
	if errors.As(err, &n) {
		return true, n.after
	}
	return false, 0
}
