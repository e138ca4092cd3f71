// Package rootfs is the only way the agent reads and writes a node's files:
// every path is taken under a root directory (--root, default /) and resolved
// as a chroot there would, so a symlink in the tree, absolute or not, stays
// inside the root. Every write is atomic (a temp file in the same directory,
// fsync, rename, fsync of the directory) and skipped when the bytes and mode
// already match, so a second run changes nothing (same inode, same mtime);
// links are made the same careful way. Managed is the header
// generated files carry.
//
// The crash-consistency test can stop the process at any write point
// (FailpointEnv); unset, that costs one comparison.
//
// It does not decide what to write (bootstrap's render does), and it is not
// a security boundary: it keeps paths inside the root, it does not defend
// against a root that changes underneath it.
package rootfs
