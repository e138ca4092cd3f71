// Package examples holds the checks on what operators copy from: every
// configuration under examples/ passes `corium-agent validate --strict` (the
// binary, built by the test, as an operator runs it), the PXE kernel command
// line decodes through the agent's own source chain to exactly the worker's
// config with its pin verified, every #cloud-config passes `cloud-init
// schema` (the corium: key being the one thing newer cloud-init may name),
// every yaml-language-server modeline points at the generated JSON Schema and
// that schema accepts the file, the nodes of the overlay examples describe
// one overlay (keys, endpoints and ports agree across their documents), and
// the commands the README and the example READMEs tell an operator to run
// work as written.
//
// It checks documents, not nodes: what a node does with them is tested in
// internal/firstboot and test/boot.
package examples
