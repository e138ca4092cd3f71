// Package firewall is the node's own nftables table, `inet corium`: the
// cluster-port guard and the pod masquerade, either or both.
//
// The guard (clusterPorts: overlay) drops new connections to the role's k0s
// ports unless they arrive on loopback or a configured WireGuard interface,
// come from the pod network on an interface the CNI delivers pods on
// (kube-router's bridge and tunnels, calico's veths and VXLAN devices; none
// for a custom CNI), or, on a controller whose cluster.endpoint is an IP off
// the overlay, are addressed to that IP on the ports clients reach the
// cluster on there (6443, 8132, 9443). The encapsulation the CNI uses between
// nodes is itself dropped off the overlay, since what it carries comes out on
// such an interface.
//
// The masquerade (kube-router with the node address on WireGuard, guard on or
// off) gives pods' packets leaving through a WireGuard interface to a
// non-pod address the node's own source, which the peer's allowedIPs hold.
//
// This package is the guard as data, and links no nftables and reads no
// file: Render turns a validated config into a Guard, a small spec that is
// written to /var/lib/corium/firewall.json and re-applied from there on every
// boot (a file an older agent wrote still parses, failing closed on pod
// sources), and Check refuses a guard that cannot be programmed as written.
// Package firewall/guardfile reads the file under a root; package
// firewall/nft programs the guard.
//
// K0sDropIn is the drop-in that makes the k0s unit require the guard and
// refuse to start without its file.
//
// It touches nothing outside its own table, ever: no ruleset flush, no other
// table read or written. It does not decide when to run or in which network
// namespace (apply, the CLI and the image's units do) and it resolves no
// secrets.
package firewall
