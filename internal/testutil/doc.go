// Package testutil holds helpers shared by the tests that use real parts:
// the root and command checks that turn a skip into a failure in CI, and
// throwaway network namespaces joined by veth pairs. Nothing in it is linked
// into the agent.
package testutil
