// Package lab holds the cluster lab: a set of node documents provisioned
// by the real agent, each node in a network namespace of its own on a
// shared underlay bridge (TEST-NET addresses, IPv4 or IPv6), with a router
// namespace doing nftables NAT for nodes behind it (a node that only dials
// out, and a 1:1 NAT with a public address on the router). Each node's
// overlay is the wg-quick file the agent rendered, brought up unchanged
// with wireguard-go in the node's namespace (and a private /run/wireguard,
// since every rendered file names wg0); its guard is the one the agent
// rendered, loaded with `corium-agent firewall apply --netns`; its
// sysctls are the image's (image/usr/lib/sysctl.d/50-corium.conf).
//
// Where k0s listens, stand-ins listen (k0s is not installable here), bound
// as k0s binds them and answering with their node's name (standin_test.go
// cites k0s v1.36.3+k0s.0 for each). The lab's verdict then holds the set to
// two claims: every pair that must talk does, over the overlay (a handshake
// with each direct peer, a TCP connection that reaches the right node and
// leaves by the wireguard interface); and from the open network (an
// attacker on the underlay, and the router) nothing that listens on a node
// answers but its public ports, and on a node with clusterPorts open its
// role's ports.
//
// With a virtual IP (ha_test.go) the lab stands in for keepalived too, the
// address put on one controller, and adds k0s's redirect of its API port to
// the control-plane load balancer; every node must reach the endpoint's
// ports there, and again with the address moved to each other controller
// in turn, as a failover moves it.
// keepalived_test.go runs Debian's keepalived there instead, on the
// configuration k0s renders from the agent's k0s.yaml (its template
// mirrored in cplb_template_test.go), and holds it to one holder and a
// failover.
//
// It does not run k0s (the stand-ins take its ports); Lab.Replace runs a
// real process in a stand-in's place: etcd (etcd_test.go), kine on a
// PostgreSQL beside the nodes (kine_test.go, postgres_test.go) and
// keepalived (keepalived_test.go). It does not check UDP listeners
// beyond the WireGuard port, and it does not hold validate --cluster to
// what it finds. docs/lab.md says how to run it.
//
// The differential (differential_test.go) builds labs from generated sets
// (internal/cluster/clustergen: their documents unchanged, on their own
// networks behind a router that lets another network into a network
// behind NAT only through the NAT, gen_lab_test.go) and holds validate
// --cluster --facts DIR (--topology with the set's sites), with the facts
// each node gathered, to the lab's truth: no error exactly when the
// cluster works. docs/lab.md says how to run it all.
package lab
