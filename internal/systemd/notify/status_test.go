package notify

import (
	"path/filepath"
	"testing"

	"github.com/corium/corium-agent/internal/systemd/notify/notifytest"
)

func TestStatusReachesNotifySocket(t *testing.T) {
	sock := notifytest.Listen(t)
	t.Setenv("NOTIFY_SOCKET", sock.Path)

	sent, err := Status("waiting for /run/corium/wg0.key\n(attempt 3)")
	if err != nil || !sent {
		t.Fatalf("Status = %v, %v", sent, err)
	}
	if got, want := sock.First(t), "STATUS=waiting for /run/corium/wg0.key (attempt 3)"; got != want {
		t.Fatalf("datagram %q, want %q", got, want)
	}
}

func TestStatusWithoutServiceManager(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", "")
	sent, err := Status("anything")
	if sent || err != nil {
		t.Fatalf("Status = %v, %v; want a silent no-op", sent, err)
	}
}

func TestStatusToAMissingSocketFails(t *testing.T) {
	t.Setenv("NOTIFY_SOCKET", filepath.Join(t.TempDir(), "gone"))
	if _, err := Status("x"); err == nil {
		t.Fatal("want an error when NOTIFY_SOCKET names no socket")
	}
}

// The run's last message carries an outcome that may span lines (a joined
// error): it stays one STATUS= assignment after READY=1.
func TestFinishedIsOneAssignment(t *testing.T) {
	sock := notifytest.Listen(t)
	t.Setenv("NOTIFY_SOCKET", sock.Path)
	if sent, err := Finished("failed: validating the configuration:\nrole: is required\nMAINPID=1"); err != nil || !sent {
		t.Fatalf("Finished = %v, %v", sent, err)
	}
	if got, want := sock.First(t), "READY=1\nSTATUS=failed: validating the configuration: role: is required MAINPID=1"; got != want {
		t.Fatalf("datagram %q, want %q", got, want)
	}
}
