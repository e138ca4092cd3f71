package notifytest

import (
	"net"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Socket is a service manager's notify socket standing in for
// systemd's: it keeps every sd_notify datagram sent to Path.
type Socket struct {
	Path string
	mu   sync.Mutex
	all  []string
	more chan struct{}
}

// Listen opens a notify socket for the test; it closes when the test
// ends.
func Listen(t testing.TB) *Socket {
	t.Helper()
	path := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: path, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	s := &Socket{Path: path, more: make(chan struct{}, 1)}
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
	return s
}

// First waits for the first datagram.
func (s *Socket) First(t testing.TB) string {
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

// Text is every datagram received so far.
func (s *Socket) Text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.all, "\n")
}
