// Package k0s is what the agent knows of k0s v1.36.3+k0s.0, and the one
// place the effective configuration of a node document is computed (Of):
// the ClusterConfig the agent derives from the document with k0s.patch
// merged over it, the network facts k0s will act on, the ports each role
// listens on, and the problems k0s would raise. Validation, render, the
// guard, the cluster check and status read that one value; none of them
// merges k0s.patch or reads the network again. It is computed once per
// document in a run (validation keeps it as schema.Document.K0s, status
// computes it for the applied record) and handed along: the consumers'
// signatures ask for it, and a test lists the few places that compute it.
//
// The listeners are a table (Listeners): every socket k0s and the
// components it starts open on a node, or can be told to open, each with
// its citation and what the guard does with it. The role's guarded ports
// are computed from its followed rows, and a setting that moves a listener
// where the guard cannot follow is one of the effective configuration's
// problems, at its path (with firewall.clusterPorts overlay), so that
// validate, plan, apply and firewall refuse it alike. docs/firewall.md
// shows the table, generated from the rows (go generate). A worker's rows
// are refused in a controller's document too: the controllers publish the
// workers' settings. A refused setting is found however its consumer reads
// its name (a flag's `_` as `-`, Felix's variables and the kubelet's keys in
// any case).
//
// It reads the ClusterConfig by exact key, so it refuses, whatever the
// guard, every spelling that k0s or a component reads as another key
// (spelling.go): a key k0s's decoder matches only by folding case, `_` or
// dashes in a flag's name where the agent reads it, a Felix variable not in
// capitals. Refusing them keeps every exact-key reader right by
// construction, instead of emulating each consumer's folding.
//
// Its subpackages hold the facts it is computed from, each citing k0s's
// source (file and line at the tag): config the ClusterConfig's base, merge
// and network read-back, rules what k0s refuses at install and start,
// kubelet what the bundled kubelet refuses of node labels.
//
// It does not import the contract (package schema): the document's fields
// reach it as plain values (Input), which schema.K0s fills in, so the
// contract's validation can read the effective value without a cycle. It
// does no I/O. The node's own part of the rendered k0s.yaml (addresses, the
// VRRP password, MTUs) is render's; Node merges it in, under the patch.
package k0s
