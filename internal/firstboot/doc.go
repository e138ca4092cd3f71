// Package firstboot is the agent's run from end to end: find the document
// (source), validate it (schema) before anything is touched, resolve its
// secrets (secret), bring the overlay up, decide the node address, render and
// apply the rest of the node (bootstrap), and record the run in the status
// file, success or failure. The marker is written last; a run that finds it
// does nothing. Day two (Again) converges the overlay and the guard on a
// provisioned node and refuses changes a joined node cannot take.
//
// It renders nothing itself and performs no live action except through the
// bootstrap.Live it is given.
package firstboot
