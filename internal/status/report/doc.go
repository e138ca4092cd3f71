// Package report is what `corium-agent status` reports: whether the node is
// provisioned, where its configuration came from, how its node address was
// decided, and whether each layer really works, read bottom-up — route,
// tunnel, firewall, k0s — ending in one verdict. The firewall layer also
// reads what really listens in the node's network namespace (Sockets) and
// has package listen judge it against the rendered guard: a cluster
// listener that answers the underlay where the guard does not cover it
// degrades the verdict, and so does a socket on a cluster port that no
// process and no kernel device status knows holds; other host services are
// information.
//
// Much of the report is text from outside (a comm, a link's name, a
// journal line, an error the kernel wrote): the text form writes every line
// through package shown and quotes the host's names where it puts them in.
// The JSON form is the command's, which escapes what encoding/json leaves.
//
// Files come from under the root (the marker, the applied configuration, the
// status file of the last run, the recorded node address, the record of
// what each overlay device must be, the rendered guard), read through
// package record. Live
// state comes through small interfaces — WireGuard devices, links and
// routes, unit states, the guard in the kernel — each of which may be absent;
// what could not be checked is reported as unknown with the reason, never
// guessed. A guard file that is gone, cannot be used, was written by an
// older agent, or is not what this agent renders from the applied
// configuration is a problem of the firewall layer, said with what k0s does
// about it and what to run; a table holding the pod masquerade alone is
// never reported as a guard. With the status file gone (it lives under /run), the node-address
// decision is made again from the live links and marked as recomputed. A peer is reachable only with a
// handshake younger than HandshakeFresh by the injected clock.
//
// It changes nothing, resolves no secret, and its report types have no field
// that could hold a private or preshared key.
package report
