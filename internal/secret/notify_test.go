package secret

import (
	"log/slog"
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/retry"
)

var discard = slog.New(slog.DiscardHandler)

func retryPolicy(base, ceiling time.Duration) retry.Policy {
	return retry.Policy{Base: base, Cap: ceiling}
}

// notifySocket is a stand-in service manager: a unixgram socket named by
// NOTIFY_SOCKET, read continuously as systemd does (a full socket queue
// blocks the sender).
type notifySocket struct {
	mu   sync.Mutex
	all  []string
	more chan struct{}
}

func listenNotify(t *testing.T) *notifySocket {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	s := &notifySocket{more: make(chan struct{}, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		buf := make([]byte, 4096)
		for {
			n, err := conn.Read(buf)
			if err != nil {
				return
			}
			s.mu.Lock()
			s.all = append(s.all, string(buf[:n]))
			s.mu.Unlock()
			select {
			case s.more <- struct{}{}:
			default:
			}
		}
	}()
	t.Cleanup(func() { conn.Close(); <-done })
	t.Setenv("NOTIFY_SOCKET", path)
	return s
}

// first waits for the first datagram.
func (s *notifySocket) first(t *testing.T) string {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		s.mu.Lock()
		if len(s.all) > 0 {
			defer s.mu.Unlock()
			return s.all[0]
		}
		s.mu.Unlock()
		select {
		case <-s.more:
		case <-deadline:
			t.Fatal("no datagram on the notify socket within 5s")
		}
	}
}

// text is every datagram received so far.
func (s *notifySocket) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.all, "\n")
}
