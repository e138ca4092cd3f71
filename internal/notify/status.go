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
	// One STATUS= assignment per line of the datagram: a newline in the text
	// would start a new, unintended assignment.
	line = strings.Join(strings.Fields(line), " ")
	sent, err := daemon.SdNotify(false, "STATUS="+line)
	if err != nil {
		return false, fmt.Errorf("notifying the service manager: %w", err)
	}
	return sent, nil
}
