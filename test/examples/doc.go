// Package examples holds the checks on what operators copy from: every
// configuration under examples/ passes `corium-agent validate --strict` (the
// binary, built by the test, as an operator runs it); the PXE kernel command
// line decodes through the agent's own source chain to exactly the worker's
// config with its pin verified; every #cloud-config passes `cloud-init
// schema`, the host's and cloud-init 25's, the corium: key being the one
// thing cloud-init 25 names; both cloud-init forms reach the agent through
// cloud-init 25 itself (in the boot tests' Debian trixie tree); every
// yaml-language-server modeline points at the generated JSON Schema and that
// schema accepts the file; the nodes of the overlay examples describe one
// overlay (keys, endpoints and ports agree across their documents); and the
// commands the README and the example READMEs tell an operator to run work
// as written, printing what the README says they print.
//
// It checks documents and what cloud-init makes of them, not nodes: what a
// node does with its configuration is tested in internal/provision and
// test/boot.
package examples
