// Package sourcetest runs the agent's source chain as a booted node would,
// for the tests of the packages that make what a node reads (the cmdline
// command, the examples, the VM test's kernel command line). Only tests
// import it.
package sourcetest
