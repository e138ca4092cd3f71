package notify

import (
	"net"
	"path/filepath"
	"testing"
	"time"
)

func TestStatusReachesNotifySocket(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)

	sent, err := Status("waiting for /run/corium/wg0.key\n(attempt 3)")
	if err != nil || !sent {
		t.Fatalf("Status = %v, %v", sent, err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(buf[:n]), "STATUS=waiting for /run/corium/wg0.key (attempt 3)"; got != want {
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
	sock := filepath.Join(t.TempDir(), "notify")
	conn, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: sock, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	t.Setenv("NOTIFY_SOCKET", sock)
	if sent, err := Finished("failed: validating the configuration:\nrole: is required\nMAINPID=1"); err != nil || !sent {
		t.Fatalf("Finished = %v, %v", sent, err)
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 4096)
	n, err := conn.Read(buf)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(buf[:n]), "READY=1\nSTATUS=failed: validating the configuration: role: is required MAINPID=1"; got != want {
		t.Fatalf("datagram %q, want %q", got, want)
	}
}
