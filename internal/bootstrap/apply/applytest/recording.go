package applytest

import (
	"context"
	"strings"
	"sync"

	"github.com/corium/corium-agent/internal/bootstrap/plan"
)

// RecordingLive is a Live that performs nothing and records each action as
// one line of text, so tests compare what would have happened as text.
type RecordingLive struct {
	mu    sync.Mutex
	lines []string
	// Fail makes the action whose String() has this prefix fail with Err.
	Fail string
	Err  error
}

// Do records a and fails when it matches Fail.
func (r *RecordingLive) Do(_ context.Context, a plan.Action) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, a.String())
	if r.Fail != "" && strings.HasPrefix(a.String(), r.Fail) {
		return r.Err
	}
	return nil
}

// Text is every recorded action, one per line.
func (r *RecordingLive) Text() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.lines) == 0 {
		return ""
	}
	return strings.Join(r.lines, "\n") + "\n"
}
