// Package scan reads the sockets open for new peers in a network namespace
// and the processes that hold them, for package listen to judge: TCP
// sockets in the listen state and unconnected UDP sockets, both families,
// over netlink's sock_diag (which, unlike /proc/net, says which device a
// socket is bound to), and each socket's holder found by its inode among
// the descriptors of /proc/PID/fd, with the holder's comm and cgroups. A
// UDP socket no process holds is named by the kernel's device on its port
// (a VXLAN device's destination port and a WireGuard device's listen port
// over netlink and wgctrl, a FOU port over generic netlink); one that is
// none of these is left unnamed, for package listen to call its holder
// unknown.
//
// It reads no command line and no environment of any process: they may
// carry a secret. It judges nothing, reads nothing of the agent's, and
// loads no kernel module (the FOU family is looked for, never asked for).
package scan
