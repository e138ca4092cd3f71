// Package firewall is the cluster-port guard: the node's own nftables table,
// `inet corium`, that drops new connections to the role's k0s ports unless
// they arrive on loopback or a configured WireGuard interface, or come from
// the pod network over the link that routes back to it.
//
// Render turns a validated config into a Guard, a small spec that is written to
// /var/lib/corium/firewall.json and re-applied from there on every boot. Apply
// programs the table in one netlink batch, Remove deletes it, and State reads
// the kernel back and says whether the guard in force is the one rendered.
//
// K0sDropIn is the drop-in that makes the k0s unit require the guard.
//
// It touches nothing outside its own table, ever: no ruleset flush, no other
// table read or written. It does not decide when to run (bootstrap and the
// corium-firewall unit do) and it resolves no secrets.
package firewall
