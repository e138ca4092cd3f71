// Package plan is the vocabulary of a run: what render decides and apply
// carries out, steps of files, links and live actions, in the order they must
// happen, with no I/O; and Device, what a live WireGuard interface must look
// like once up (the verify action checks it, package status keeps it in
// /var/lib/corium/wireguard.json); and PeerChange, the peers a
// wireguard-peers action adds and removes. It does not read the files it
// names: a wg-quick file is read and written by package wgquick. Plans,
// logs, fakes and the status file all show actions the one way Action.String gives, and every report of a run
// (the plan, status.json) shows a step's files and actions as ShownFile and
// ShownAction, adding beside them only what is its own: a plan's diff and
// when apply would act, a run's outcome. Managed is the header every
// generated text file carries: render writes it, and an again run reads it to
// tell the agent's files from someone else's.
//
// It is a leaf: it imports no other package of the agent, no schema, and no
// driver (deptest.Layout places it in the pure tier, with those two refused
// beside it).
package plan
