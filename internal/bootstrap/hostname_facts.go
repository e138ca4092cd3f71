package bootstrap

import (
	"os"
	"strings"

	"github.com/corium/corium-agent/internal/bootstrap/render"
	"github.com/corium/corium-agent/internal/rootfs"
)

// The run reads the host's name here, not in render, which is handed the
// facts and reads nothing of the host.

// ReadHostnameFacts reads the current hostname (the kernel's on the host,
// /etc/hostname under any other root) and /etc/machine-id under the root.
func ReadHostnameFacts(root rootfs.Root) render.HostnameFacts {
	var f render.HostnameFacts
	if root.IsHost() {
		f.Current, _ = os.Hostname()
	} else if b, err := root.ReadFile(render.HostnamePath); err == nil {
		f.Current = firstLine(b)
	}
	if b, err := root.ReadFile("/etc/machine-id"); err == nil {
		id := firstLine(b)
		// "uninitialized" is what an image carries until first boot.
		if id != "uninitialized" {
			f.MachineID = id
		}
	}
	return f
}

func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	return strings.TrimSpace(s)
}
