// Package cluster checks that several node documents describe one cluster:
// what validate --cluster adds to validating each file on its own. A node
// document describes one node, and nothing at boot reads another node's
// document; the mistakes between documents (keys swapped between two
// peers, a pair where only one side lists the other, allowedIPs that miss
// the peer's address, a node in another network, a second controller
// without a join token, a different pod range) validate file by file and
// show only as a tunnel that never handshakes or a node in the wrong
// cluster. This package finds them offline, before any node boots.
//
// Each file is read as the node is handed it (source.Unpack: standalone, a
// cloud-config with corium: or write_files, a kernel command line) and
// validated as validate does (Read). Check then works on the set:
//
//   - settings.go: cluster-wide settings agree (cluster.name, network.*,
//     storage.type, the HA virtual IP and router ID among controllers,
//     cluster.endpoint where set);
//   - identity.go: node names and addresses are unique, roles fit together
//     (one cluster start, a controller somewhere);
//   - keys.go: every interface's key pair is its own, and no peer key is
//     any file's secret;
//   - peers.go: each peer entry is matched to the interface it names, by
//     key and by the addresses its allowedIPs hold, and pairs list each
//     other on interfaces of one network;
//   - dial.go, allowedips.go, psk.go, mtu.go: one side of each pair can
//     dial the other at its port, allowedIPs hold the peer's addresses and
//     no two entries of a file claim one node, preshared keys agree, MTUs
//     of one overlay agree;
//   - network.go, patches.go: what the CNI and kube-proxy run is one
//     network on every node, and the controllers' k0s.patch make one
//     ClusterConfig;
//   - ha.go, ha_unicast.go, etcd.go: the controllers' keepalived make one
//     VRRP group on the virtual IP's network, judged from the underlay
//     addresses the documents state, and etcd has an odd number of members.
//   - reach.go, podranges.go, keepalive.go, endpoints.go: nodes that carry
//     pods or etcd between their node addresses reach each other through
//     the overlay (directly or through one peer that forwards), no
//     allowedIPs hold the pod or service range, a node nobody can dial keeps
//     its tunnels open, and the peers dialling one interface agree on where.
//   - endpoint_owner.go, listenport.go: no entry dials its peer at another
//     node's address, and a listenPort every dialer disagrees with is named
//     there.
//   - ha_vip.go: the virtual IP is of the controllers' family and network
//     (with facts, their VRRP interfaces'), and in no allowedIPs.
//   - guard.go, datasource.go, credentials.go: no node is left open where
//     others guard, kine controllers read their datasource from one place,
//     and every credential name is one the shipped image delivers.
//   - facts.go, mtu_route.go: each node's host facts, where given (found by
//     node name or file name), and a stated mtu its routes can carry.
//   - topology.go, topology_check.go: the set's topology, where given
//     (WithTopology): sites, and the nodes behind a 1:1 NAT, each dialled
//     at its private address from its own site and its public one from
//     elsewhere. ADR 6 keeps it out of every node's document; no node
//     reads it.
//   - cause.go, blame.go, swap.go, majority.go: the cause first: of two
//     interfaces sharing an address or a key pair, the one the others'
//     entries do not expect it of; keys swapped between two entries as one
//     finding with its fix; a shared setting held to the value most files
//     have, so the file named is the one that differs.
//
// Findings name every file and field involved, the first place in the
// finding's position and the others in its message and Related, in a fixed
// order. No finding quotes a secret or a key: a key in the wrong field may
// be a private one.
//
// It is a linter: it never generates, rewrites or distributes a key, and it
// does no I/O but reading the files it is given; each node's host facts are
// handed to it (Node.Facts), never read here.
package cluster
