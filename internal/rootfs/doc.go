// Package rootfs is the only way the agent reads and writes a node's files:
// every path is taken under a root directory (--root, default /) and resolved
// as a chroot there would, so a symlink in the tree, absolute or not, stays
// inside the root, and ".." stops at it.
//
// Resolution is github.com/cyphar/filepath-securejoin's pathrs-lite
// (openat2 with RESOLVE_IN_ROOT where the kernel has it), not a resolver of
// our own: a hand-written one handed host paths to os functions, and the
// kernel then followed what it had left unresolved (the last component of a
// directory to create, the link after the 40th) on the host. Here every
// operation works on descriptors obtained inside the root: the directory
// holding a path is opened inside the root, and the last component is acted
// on with *at syscalls that do not follow it (openat O_NOFOLLOW|O_EXCL for
// temp files, renameat, symlinkat, unlinkat, fchmod, fsync of the directory).
// A write therefore replaces a link at its path the way rename(2) does and
// never writes through it. os.Root does not fit: it refuses absolute links,
// and real trees hold them (cloud-init's /var/lib/cloud/instance points at
// /var/lib/cloud/instances/<id>). The host "/" goes through the same code,
// where it is ordinary resolution.
//
// A path that cannot be kept inside the root (a loop, more than 40 links, a
// component that is not a directory, a dangling link where a directory must
// be) fails with an error naming the node path; nothing falls back to a host
// path. Reading opens only regular files: the handle is taken O_PATH and
// checked with fstat before it is reopened, so a FIFO, a device or a socket
// is refused at once instead of blocking or being acted on.
//
// Files outside any root, on the host a command runs on, are read here too,
// so that the refusal is one piece of code: ReadFound reads what the agent
// found by listing a directory a person named (validate DIR, validate
// --cluster --facts DIR) with the same O_PATH, fstat and reopen, and
// ReadNamed what the person named, a pipe included (validate <(…)). Both
// read at most a bound their caller gives, as ReadAtMost does standard
// input.
//
// Every write is atomic (a temp file in the same directory, fsync, rename,
// fsync of the directory) and skipped when the bytes and mode already match,
// so a second run changes nothing (same inode, same mtime); links are made
// the same careful way. SyncFS syncs the whole filesystem holding a
// directory, for what a program the agent ran wrote there unsynced.
// Directories the agent creates are 0755 but for the one asked for, which
// gets the requested mode; an existing one is tightened to a private mode
// (0700 for secrets) through its descriptor.
//
// The crash-consistency test can stop the process at any write point
// (FailpointEnv); unset, that costs one comparison.
//
// It does not decide what to write (render does). It keeps every
// lookup inside the root even while the tree changes underneath it (the
// library's race-safety), but it is not a sandbox: whoever may write the
// root may still swap what the agent writes into it.
package rootfs
