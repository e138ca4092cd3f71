// Package firewall is the cluster-port guard: the node's own nftables table,
// `inet corium`, that drops new connections to the role's k0s ports unless
// they arrive on loopback or a configured WireGuard interface, or come from
// the pod network on an interface the CNI delivers pods on (kube-router's
// bridge and tunnels, calico's veths and VXLAN devices; none for a custom
// CNI). The encapsulation the CNI uses between nodes is itself dropped off
// the overlay, since what it carries comes out on such an interface.
//
// Render turns a validated config into a Guard, a small spec that is written to
// /var/lib/corium/firewall.json and re-applied from there on every boot (a
// file an older agent wrote still loads, failing closed on pod sources).
// Apply programs the table in one netlink batch, Remove deletes it, and State
// reads the kernel back and says whether the guard in force is the one
// rendered.
//
// K0sDropIn is the drop-in that makes the k0s unit require the guard and
// refuse to start without its file.
//
// It touches nothing outside its own table, ever: no ruleset flush, no other
// table read or written. It does not decide when to run or in which network
// namespace (bootstrap, the CLI and the image's units do) and it resolves no
// secrets.
package firewall
