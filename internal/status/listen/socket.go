package listen

import "net/netip"

// Socket is one socket open for new peers in the node's network namespace:
// a TCP socket in the listen state, or a UDP socket bound and unconnected.
type Socket struct {
	Proto string // "tcp" or "udp"
	// Addr is the bound address, the unspecified address for a wildcard.
	Addr netip.Addr
	Port int
	// Device is the link the socket is bound to (SO_BINDTODEVICE), "" for
	// none.
	Device string
	// Owner is the process that holds it; nil for a socket no process
	// holds, and for one whose process could not be read (Unread).
	Owner *Owner
	// Kernel is the kernel's device the socket is for, when the scan
	// found one on its port (kernel.go); nil otherwise. No process holding
	// a socket does not make it the kernel's: one passed between
	// processes over SCM_RIGHTS is held by none while it is in flight.
	Kernel *Kernel
	// Unread says no holder was found while some process's descriptors
	// could not be read (/proc/PID/fd is root's to read), so the socket
	// may be that process's.
	Unread bool
}

// Owner is a process that holds a socket.
type Owner struct {
	PID int
	// Comm is the process's name as the kernel keeps it (/proc/PID/comm).
	Comm string
	// Cgroups are the paths of /proc/PID/cgroup, one per hierarchy.
	Cgroups []string
}
