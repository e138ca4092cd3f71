// Package plan is what render decides and apply carries out: steps of
// files, links and live actions, in the order they must happen, with no
// I/O. Plans, logs, fakes and the status file all show actions the one way
// Action.String gives.
package plan
