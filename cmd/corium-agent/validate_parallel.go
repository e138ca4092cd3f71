package main

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
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
	var g errgroup.Group
	g.SetLimit(max(1, min(runtime.GOMAXPROCS(0), len(files))))
	// g.Go blocks while the limit is reached, so the files are handed out
	// from a goroutine of their own and validateAll returns at once.
	go func() {
		for i, file := range files {
			if ctx.Err() != nil {
				break
			}
			// schema.Check gives up when ctx ends, so a SIGTERM stops the
			// running checks promptly too.
			g.Go(func() error {
				v.results[i] <- validateFile(ctx, file, c)
				return nil
			})
		}
		_ = g.Wait()
	}()
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
