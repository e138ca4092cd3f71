// Package rootfs is the only way the agent writes files: every path is taken
// under a root directory (--root, default /), and every write is atomic (a
// temp file in the same directory, fsync, rename, fsync of the directory) and
// skipped when the bytes and mode already match, so a second run changes
// nothing (same inode, same mtime).
//
// It does not decide what to write; bootstrap's render does.
package rootfs
