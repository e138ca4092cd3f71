package notify

import (
	"fmt"
	"strings"

	"github.com/coreos/go-systemd/v22/daemon"
)

// Status sets the unit's status line. It reports whether a service manager
// was listening; an error means one was expected (NOTIFY_SOCKET set) and
// could not be told.
func Status(line string) (bool, error) {
	return send("STATUS=" + oneLine(line))
}

// Finished says the run is over, with its outcome as the status line: READY=1
// and STATUS= in one datagram, so `systemctl status` shows the outcome once
// the oneshot unit has exited.
func Finished(outcome string) (bool, error) {
	return send("READY=1\nSTATUS=" + oneLine(outcome))
}

// oneLine keeps text to one assignment of the datagram: a newline in it (a
// joined error has several) would start a new, unintended one.
func oneLine(text string) string { return strings.Join(strings.Fields(text), " ") }

func send(state string) (bool, error) {
	sent, err := daemon.SdNotify(false, state)
	if err != nil {
		return false, fmt.Errorf("notifying the service manager: %w", err)
	}
	return sent, nil
}
