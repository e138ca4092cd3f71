package main

import (
	"context"
	"runtime"
	"sync/atomic"
)

// validations checks files in parallel, at most GOMAXPROCS at a time: a
// fleet's repository validates hundreds of files in one call, each on its
// own. The results are taken in the order of the files (next), so what is
// printed does not depend on which finished first.
type validations struct {
	results []chan validateReport
}

// validateAll starts checking files; a file not started when ctx ends is
// not started at all.
func validateAll(ctx context.Context, files []string, c checks) *validations {
	v := &validations{results: make([]chan validateReport, len(files))}
	for i := range v.results {
		v.results[i] = make(chan validateReport, 1)
	}
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		go func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= len(files) || ctx.Err() != nil {
					return
				}
				// Each worker checks one file at a time; schema.Check gives up
				// when ctx ends, so a SIGTERM stops them all promptly.
				v.results[i] <- validateFile(ctx, files[i], c)
			}
		}()
	}
	return v
}

// next waits for file i's result; false when ctx ends first.
func (v *validations) next(ctx context.Context, i int) (validateReport, bool) {
	select {
	case r := <-v.results[i]:
		return r, true
	case <-ctx.Done():
		return validateReport{}, false
	}
}
