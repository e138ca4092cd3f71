// Package agentbin is the agent binary, and the other programs of this
// module a guest carries (the k0s stand-in, the VM test's guestd), for tests
// that run them as programs: each built once per test binary, static and
// without build paths as the image carries the agent, and removed when the
// test binary ends (Run in TestMain). It is the one place tests build a
// program; no package keeps a build or a cache of its own.
package agentbin
