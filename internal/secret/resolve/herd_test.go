package resolve

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/secret"

	"github.com/corium/corium-agent/internal/fetch"
	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/rootfs"
	"github.com/corium/corium-agent/internal/testutil/tlsserver"
)

// rateLimited answers 200 to the first perSecond requests of each wall-clock
// second and 429 (Retry-After: 1) to the rest, like a secret store's rate
// limiter.
type rateLimited struct {
	perSecond int
	mu        sync.Mutex
	window    int64
	inWindow  int
	total     int
	limited   int
	lastOK    time.Time
}

func (s *rateLimited) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/warm" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	s.mu.Lock()
	now := time.Now()
	if sec := now.Unix(); sec != s.window {
		s.window, s.inWindow = sec, 0
	}
	s.inWindow++
	s.total++
	ok := s.inWindow <= s.perSecond
	if ok {
		s.lastOK = now
	} else {
		s.limited++
	}
	s.mu.Unlock()
	if !ok {
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusTooManyRequests)
		return
	}
	_, _ = w.Write([]byte("fleet-join-token"))
}

// TestHerd boots a fleet at once against one rate-limited server, with the
// agent's real backoff (retry's defaults): every node gets its secret within
// its wait, and the jitter keeps the total within 4x the minimum. A control
// run without jitter must cost clearly more, or the test could not tell
// jitter from none.
func TestHerd(t *testing.T) {
	if testing.Short() {
		t.Skip("the herd takes about 30s")
	}
	var jittered, control, minimum int
	t.Run("full jitter", func(t *testing.T) {
		jittered, minimum = herd(t, nil)
		if jittered > 4*minimum {
			t.Errorf("%d requests, more than 4x the minimum %d: the backoff does not spread the fleet", jittered, minimum)
		}
	})
	t.Run("control without jitter", func(t *testing.T) {
		control, _ = herd(t, func(time.Duration) time.Duration { return 0 })
	})
	// Without jitter the fleet comes back in step; on a loaded machine the
	// requests' own latency spreads it a little, so the margin is modest.
	if control*4 < jittered*5 {
		t.Errorf("without jitter %d requests, with jitter %d: jitter should save at least a fifth", control, jittered)
	}
}

// herd runs the fleet and returns the server's request count and the
// minimum the fleet needed.
func herd(t *testing.T, jitter retry.Jitter) (total, minimum int) {
	const (
		nodes     = 200
		perSecond = 20
		wait      = 2 * time.Minute
	)
	limiter := &rateLimited{perSecond: perSecond}
	srv := tlsserver.New(t, limiter)

	// Every node has its TLS connection up before the fleet starts: on a
	// loaded test machine the handshakes alone would spread the herd over
	// seconds and hide what the backoff does.
	var ready, wg sync.WaitGroup
	boot := make(chan struct{})
	errs := make([]error, nodes)
	attempts := make([]int, nodes)
	for i := range nodes {
		// One client and one resolver per node, as on separate machines.
		c := trusting(srv)
		r := NewResolver(rootfs.New(t.TempDir()), WithFetch(c), WithLogger(discard), WithStatus(func(string) { attempts[i]++ }),
			WithBackoff(retry.Policy{Jitter: jitter}))
		ready.Add(1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.Get(context.Background(), fetch.Request{URL: srv.URL + "/warm"})
			ready.Done()
			if err != nil {
				errs[i] = err
				return
			}
			<-boot
			v, err := r.Resolve(context.Background(), "join.tokenFrom", secret.Source{URL: srv.URL + "/token", WaitFor: wait.String()})
			if err == nil && v.Reveal() != "fleet-join-token" {
				err = fmt.Errorf("wrong value")
			}
			errs[i] = err
		}()
	}
	ready.Wait()
	start := time.Now()
	close(boot)
	wg.Wait()
	elapsed := time.Since(start)

	failed, maxAttempts := 0, 0
	for i, err := range errs {
		if err != nil {
			failed++
			t.Errorf("node %d: %v", i, err)
		}
		maxAttempts = max(maxAttempts, attempts[i]+1)
	}
	minimum = nodes // one successful request per node
	t.Logf("herd: %d nodes, server limit %d/s: %d requests (%d answered 429) = %.2fx the minimum of %d; last success after %s (the limit alone needs %s); most attempts by one node %d; all done in %s; %d failed",
		nodes, perSecond, limiter.total, limiter.limited, float64(limiter.total)/float64(minimum), minimum,
		limiter.lastOK.Sub(start).Round(100*time.Millisecond), time.Duration(nodes/perSecond-1)*time.Second,
		maxAttempts, elapsed.Round(100*time.Millisecond), failed)
	if elapsed > wait {
		t.Errorf("the herd took %s, past its wait of %s", elapsed, wait)
	}
	return limiter.total, minimum
}
