package report

import (
	"testing"

	"github.com/corium/corium-agent/internal/status/listen"
	"github.com/corium/corium-agent/internal/status/listen/scan"
)

// fakeSockets answers Listening with its sockets.
type fakeSockets []listen.Socket

func (f fakeSockets) Listening() ([]listen.Socket, error) { return f, nil }

// sockets reads l's namespace over sock_diag, with the holders from the
// host's /proc, as status reads the node's.
func (l *liveNode) sockets(t testing.TB) Sockets {
	t.Helper()
	h, err := scan.OpenAt(l.ns.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return scan.Reader{Diag: h, Proc: "/proc"}
}
