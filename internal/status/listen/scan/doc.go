// Package scan reads the sockets open for new peers in a network namespace
// and the processes that hold them, for package listen to judge: TCP
// sockets in the listen state and unconnected UDP sockets, both families,
// over netlink's sock_diag (which, unlike /proc/net, says which device a
// socket is bound to), and each socket's holder found by its inode among
// the descriptors of /proc/PID/fd, with the holder's comm and cgroups.
//
// It reads no command line and no environment of any process: they may
// carry a secret. It judges nothing and reads nothing of the agent's.
package scan
