// Package host is what a test needs of the machine it runs on: root and
// commands on PATH, checked so that a test that cannot run skips on a
// workstation but fails in CI (RequireEnv), and running a host command that
// fails the test with its output.
package host
