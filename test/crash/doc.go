// Package crash proves that the agent's writes survive being cut short: a
// process is killed with SIGKILL at every write point (rootfs's failpoint),
// the tree it leaves is checked for half-written files, and a re-run must
// converge to the tree an uninterrupted run makes, byte for byte.
//
// It holds tests only; the write points themselves live in internal/rootfs.
package crash
