// Package render decides what the node becomes, as a plan (package plan),
// from a validated configuration, its resolved secrets and the host's facts.
// It is pure: it reads nothing and changes nothing.
//
// The parts, by file prefix: wireguard_ renders the wg-quick files, with the
// MTU each states (InterfaceMTU, one decision the CNI's MTU is derived
// from), the record of what each device must be, and on day two, from what
// was applied before (Previous), whether each interface is reloaded,
// restarted or removed, and the checks of the resolved keys
// (wireguard_keys.go: CheckResolvedKeys holds them to a stated publicKey
// and to the rule on keys across the node's interfaces, and no peer key may
// be the interface's own or a secret); k0s_ renders the k0s configuration,
// its control plane load balancing, its drop-in and its install command,
// checked with k0s's own rules (package k0s/rules); vrrp.go decides where
// keepalived runs (ChooseVRRP: the VRRP interface, the unicast source, the
// peers less this node's addresses). units.go gathers every unit file, so
// systemd is reloaded at most once; nodeaddr.go decides the node address
// (SelectNodeAddress, one Decision handed to every k0s file); hostname.go
// the hostname; the guard's file is package firewall's. ReadPrevious and
// ReadWgQuickLinks read from the root (files, never the live host) what render
// needs of it, before rendering.
//
// It links no driver (no netlink, nftables, D-Bus, os/exec or net/http; its
// deps_test holds it to that). It does not parse or validate configuration
// (schema), resolve secrets (secret/resolve), read the host's network
// (hostfacts/gather) or its name (package bootstrap does, before rendering),
// carry the plan out (apply), or sequence a whole run (package bootstrap).
package render
