// Package bootstrap turns a validated configuration, its resolved secrets and
// the host's facts into a Plan (render, pure) and carries the plan out (apply,
// the only code with side effects, through narrow interfaces: a root for
// files, systemd, netlink, wgctrl, nftables).
//
// It does not parse or validate configuration (schema) or fetch secrets
// (secret).
package bootstrap
