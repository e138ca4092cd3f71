// Package bootstrap is the agent's run from end to end: find the document
// (source), validate it (schema) before anything is touched, read the host's
// network once, resolve its secrets (secret/resolve), decide the node address,
// render the whole node and check it (render) before the first write,
// apply it (apply) — the unit files, then the overlay — and record the run in the status file,
// success or failure. The marker is written last, before the k0s start
// is queued; a run that finds it does nothing. An again run (Options.Again)
// converges the overlay and the guard on a provisioned node and refuses, with
// each field named, changes a joined node cannot take.
//
// Plan is the same run without effects: it resolves no secret (placeholders
// stand in; the values already on disk are read out of the Secret files,
// and every line and spelling of every secret is masked in its diffs),
// writes nothing, and reports each file's change and each action apply
// would take.
//
// It renders nothing itself and performs no live action except through the
// apply.Live it is given.
package bootstrap
