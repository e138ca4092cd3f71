package resolve

import (
	"log/slog"
	"testing"
	"time"

	"github.com/corium/corium-agent/internal/retry"
	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
)

var discard = slog.New(slog.DiscardHandler)

func retryPolicy(base, ceiling time.Duration) retry.Policy {
	return retry.Policy{Base: base, Cap: ceiling}
}

// listenNotify stands in for the service manager, as NOTIFY_SOCKET names it.
func listenNotify(t *testing.T) *notifytest.Socket {
	t.Helper()
	s := notifytest.Listen(t)
	t.Setenv("NOTIFY_SOCKET", s.Path)
	return s
}
