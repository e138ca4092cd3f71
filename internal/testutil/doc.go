// Package testutil holds the helpers that tests of more than one package
// share, so each exists once and every test means the same by it:
//
//   - privileged.go, commands.go: the root and command checks that turn a
//     skip into a failure in CI;
//   - netns.go, netns_do.go, netns_handles.go: throwaway network namespaces
//     joined by veth pairs, a thread inside one, and netlink and nftables
//     handles on one;
//   - wireguard.go, keys.go: the real wg-quick over wireguard-go in a
//     namespace, a wgctrl client, fresh WireGuard keys;
//   - tls.go, scripted.go: local HTTPS servers, trusting them (a pool, a
//     PEM file for SSL_CERT_FILE), and a server answering from a script;
//   - agent.go, notify.go, credentials.go: the built agent, a clean
//     environment, a stand-in notify socket and credentials directory, as
//     systemd would give them;
//   - demo.go, random.go, gzip.go: the demo's root and secrets, random
//     names, content as cloud-init's write_files encodings hold it;
//   - jointoken.go: a well-formed fake k0s join token;
//   - tree.go, gobuild.go, standin.go, systemdshow.go: what the boot and VM
//     tests share about a guest: its root staged as an overlayfs over a
//     cached tree, the static binaries it carries, the k0s stand-in's
//     record, and systemd's unit properties as it reports them.
//
// Test data (configurations, expected messages) stays with its test. Nothing
// in this package is linked into the agent; only _test.go files import it.
package testutil
