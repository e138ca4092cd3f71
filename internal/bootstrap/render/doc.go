// Package render decides what the node becomes, as a plan (package plan),
// from its Inputs: a validated configuration, its resolved secrets, the
// host's facts and name, and on an again run what the last run left on disk. It
// is pure: it reads nothing and changes nothing; the stage that performs I/O
// reads each input and hands it over, and carries out the plan.
//
// The parts, by file prefix: wireguard_ renders the wg-quick files (as
// wgquick.File values, which package wgquick writes and reads back), with the
// MTU each states (InterfaceMTU, one decision the CNI's MTU is derived
// from), the record of what each device must be, and on an again run, from what
// was applied before (Previous), whether each interface is reloaded,
// restarted or removed, and the checks of the resolved keys
// (wireguard_keys.go: CheckResolvedKeys holds them to a stated publicKey
// and to the rule on keys across the node's interfaces, and no peer key may
// be the interface's own or a secret); k0s_ renders the k0s configuration
// (the node's part as a k0syaml.Node, whose secrets are typed, merged
// under k0s.patch; the join token as a k0syaml.TokenFile), its control
// plane load balancing, its drop-in and its install command,
// checked with k0s's own rules (package k0s/rules); vrrp.go decides where
// keepalived runs (ChooseVRRP: the VRRP interface, the unicast source, the
// peers less this node's addresses). units.go gathers every unit file, so
// systemd is reloaded at most once; nodeaddr.go decides the node address
// (SelectNodeAddress, one Decision handed to every k0s file); hostname.go
// the hostname; the guard's file is package firewall's.
//
// It is in the pure tier of deptest.Layout, which holds it there: it imports
// no os, os/exec or net/http, and links no rootfs and no driver (netlink,
// nftables, D-Bus, wgctrl's client). It does not parse or validate
// configuration (schema), resolve secrets (secret/resolve), read the host's
// network (hostfacts/gather), its name (package bootstrap) or the files the
// last run left (package bootstrap/ondisk: Previous and the wg-quick@ enable
// links), carry the plan out (apply), or sequence a whole run (package
// bootstrap).
package render
