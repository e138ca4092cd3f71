// Package agentbin is the agent binary for tests that run it as a program:
// built once per test binary, static and without build paths as the image
// carries it, and removed when the test binary ends (Run in TestMain). It
// replaces a build per test and the hand-made caches each package kept.
package agentbin
