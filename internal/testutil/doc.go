// Package testutil is the index of the helpers that tests of more than one
// package share; it has no code of its own. Each topic is a package, so a
// test binary links only the topics it uses (a parser's test no netlink, a
// fetcher's no nftables):
//
//   - fixture: pure values and files, linking no driver: fresh WireGuard
//     keys, fake k0s join tokens, random names, gzip encodings, a clock
//     for retry loops, the demo's root and secrets, a credentials
//     directory, a clean environment;
//   - host: what a test needs of the machine it runs on: root and commands
//     on PATH (a failure rather than a skip in CI), and running a command;
//   - netns: throwaway network namespaces joined by veth pairs, with the
//     real wg-quick over wireguard-go, wgctrl, netlink and nftables in them;
//   - tlsserver: local HTTPS servers, trusting them, and a server answering
//     from a script;
//   - guest: what the boot and VM tests share about a guest: its root
//     staged as an overlayfs over a cached tree, the k0s stand-in's record,
//     and systemd's unit properties as it reports them;
//   - agentbin: the agent (and the other programs a guest carries) built
//     once per test binary;
//   - deptest: the table of every package's tier (pure, io, driver,
//     equipment) and the check that holds each to it.
//
// The stand-in for systemd's notify socket is systemd/notify/notifytest,
// beside the client it tests. Test data (configurations, expected messages)
// stays with its test. Nothing here is linked into the agent; only tests
// import it.
package testutil
